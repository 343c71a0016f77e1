"""Prefixes that launchers and tools put in front of a process's own lines.

Seen in real reports (outermost first; they nest):

- a log collector's own time (`kubectl logs --timestamps`, Loki/Fluentd exports):
  `2025-07-03T14:20:51.565839352Z (Worker pid=9) ERROR ...` - kept in `tags["collector_time"]`;
  Jenkins' Timestamper writes it in brackets: `[2025-07-03T14:20:51.565Z] [rank3]: ...`
- a container runtime's log file (the CRI format containerd and CRI-O write under
  `/var/log/pods/`): `2025-07-03T14:20:51.565839352Z stderr F [rank3]: ...` - the time kept like
  a collector's, the stream joins the writer's key; `P` marks a part of a line the runtime split
- `kubectl logs --prefix`: `[pod/trainer-0/pytorch] [rank3]: ...` - the pod and container are
  the writer (before `--timestamps`' time when both are asked for)
- a CI runner's lines of a step's output (nektos/act): `[CI/train]   | [rank3]: ...`, the job
  the writer; on a terminal act writes the bar alone in the job's colour, `| [rank3]: ...` once
  the colour codes are dropped - only a bar that opens a line that does not end in one, so a
  table's row (`| 0  910B  | OK |`) stays as written
- grep over a plog directory: `/root/ascend/log/debug/plog/plog-7905_2024.log:[ERROR] RUNTIME(...)`
  (with `grep -n` also the line number: `plog-7905_2024.log:118:[ERROR] ...`)
- docker compose: `mineru-npu-model-server   | 2026-02-26 19:18:17.731 | ERROR    | ...`
- pdsh / clush / deepspeed multi-node: `worker-1: ...`, `10.0.0.3: [rank2]: ...` - the host is
  the writer and is kept in `tags["host"]` (the innermost label, when a pdsh run on one host
  relays another's), so the report can say which host each rank ran on
- Ray and vLLM process tags: `(Worker_DP0_TP5_EP5 pid=270) ...`, `(WorkerDict pid=7435, ip=1.2.3.4) ...`,
  `(VllmWorker rank=2 pid=15632) ...`, Ray's own `(raylet) ...` / `(raylet, ip=1.2.3.4) ...`; pasted
  logs sometimes split a name (`(EngineCore _DP3 pid=274)`). Ray releases before actors were
  named in the tag print the worker's pid alone (`(pid=40211) ...`, `(pid=4121, ip=10.0.0.7)
  ...`): the process is the writer, but no name says which worker it is
- a cloud job launcher's node tag (SkyPilot), the node's name and its node rank before the pid
  of the command it ran there: `(head, rank=0, pid=5634) ...`, `(worker1, rank=1, pid=4888,
  ip=10.60.0.4) ...` (older releases `(node-0 pid=26831) ...`, the Ray tag's shape). The rank is
  the node's place in the cluster, not a process's rank, so it names no rank of the job
- colour codes whose ESC byte was lost on the way into an issue: `[0;36m(Worker pid=9)[0;0m ...`,
  or shown in caret notation: `^[[1;36m(VllmWorker TP4 pid=9)^[[0;0m ...`
- Slurm's `srun --label`: the task number, right-aligned, a colon and one space before each
  task's line: ` 3: [rank3]: Traceback ...`, `11: ...` (a writer of its own, like pdsh's host)
- `grep -n` over one file, or line numbers pasted with a log: `118:[rank3]: Traceback ...`
  (only digits and a colon not followed by another digit, so `12:30:01` stays a time)
- a viewer's line numbers copied with the text (`cat -n`, an editor's gutter):
  `  1145\t[rank3]: RuntimeError: ...` - padded digits and a tab; an unpadded `0\t1\t2`
  is a row of data, not a number in front of a line
- a notebook platform's kernel log (Kaggle's, as a notebook's run exports it): the seconds since
  the session began and the output's line number, each closed by a tab, in front of every
  line the notebook's processes wrote: `704.7s\t1344\t[rank0]: RuntimeError: ...` - both change
  on every line, so like a gutter number they stay out of the writer's key; a time alone
  before a tab (`0.5s\tloss 0.31`) is a line of the process's own
- a log viewer's line numbers in brackets, copied with the text: `[80746] [rank0]:[E321 ...]
  ...` - only in front of torch's own rank tag (`[rankN]:`, `[defaultN]:`), which names the
  writer; a bracketed number before anything else (`[3] NCCL ...`, `[12345] [INFO] ...`)
  may be a rank or a pid and stays as written
- a platform's time written with a space, seconds optional, in front of torch's rank tag
  (a job console's export, `ts '%F %T'`): `2025-02-18 12:54 [rank8]:[E218 04:54:22...] ...`,
  sometimes with one space before it - kept like a collector's time; only before the rank
  tag, since a time then a level or a logger is Python logging's own header
- a Markdown quote around a pasted log: `> [E306 00:03:07.842961975 socket.cpp:1011] ...` (a bare
  `>` is one of its blank lines)
- a Markdown code span over a whole pasted line, as an issue writer formats a line or two of a
  terminal: `` `Killed` ``, ``` ``Killed`` ``` - the backticks go; a span inside a line (a name
  quoted in a sentence), two spans on one line and a code fence stay as written
- torchrun: `[default3]:...` (local rank) and torch's `[rank3]:...` (global rank)
- Open MPI's `mpirun --tag-output` (DeepSpeed's and Horovod's MPI launchers):
  `[1,3]<stderr>:...` - the job number, the rank, the stream
- the system journal or syslog, for a job run as a service (`journalctl -u serve`, a copy of
  /var/log/syslog): `Mar 01 10:00:05 node3 python[4121]: ...` - month, day, time, host,
  program and its pid; the time is kept like a collector's (the year comes from the file), the
  host in `tags["host"]` like pdsh's;
  rsyslog's high-precision file format writes the time as a collector does, with its zone,
  and always names the pid: `2025-03-02T08:14:51.120334+00:00 node3 python3[4121]: ...`
- a progress bar (tqdm) that redraws itself with a carriage return and no newline, so the next
  line a process writes is glued to its last frame once the log is read as lines:
  ` 50%|#####     | 1/2 [00:01<00:01,  1.21s/it]F0000 00:00:1716973077.46 ...` - the bar is
  dropped; only a bar followed directly by more text is one (a bar alone stays a line), and a
  bar whose postfix shows a non-finite loss or gradient norm (`step_loss=nan`) is kept whole
- the progress dots CANN's compilers print while they build ops or a model (ATC, the graph
  engine's online op build), one dot at a time with no newline, so the next line a process
  writes is glued to them: `.....EZ3003: [PID: 653] ... No supported Ops kernel ...` - the dots
  are dropped; only three or more dots followed directly by text are (a row of dots alone, an
  ellipsis before a space, and `..` in a path stay as written)
- a row of a web log viewer's table copied as text (a cluster console, Grafana, Kibana):
  empty or marker cells, the record's time in a cell of its own, the record, the row's closing
  bar: `  |   | 2026-03-11 16:42:19.492 | [rank1]: RuntimeError: ... |` - the time is kept
  like a collector's (such viewers often list the newest record first, so a row's position
  is not the order in which the records were written)
- a model server's frontend relaying what its Python workers print (TorchServe's log4j
  records): `2026-03-01T10:00:05,118 [INFO ] W-9001-resnet_1.0-stdout MODEL_LOG - <the
  worker's line>`, the logger `org.pytorch.serve.wlm.WorkerLifeCycle` in older releases, a
  worker's stderr at `[WARN ]`; the level is the frontend's choice for a relayed stream, not
  the worker's, so it goes with the prefix and the worker's words are read like any untagged
  stream line (as torch's rank tag inside a trainer's INFO record, `formats.lines`); the
  thread name (worker port, model, stream) is the writer and the time is kept like a
  collector's. The frontend's own records (`[ERROR] W-9001-resnet_1.0 org.pytorch.serve.wlm.
  WorkerThread - ...`) keep their level
- vLLM-Omni's stage tag, which a multi-stage server puts in front of each line a stage's
  process writes: `[Stage-0] INFO 01-21 09:47:31 [shm_broadcast.py:501] ...` - the stage is
  the writer, so the tag joins the stream key; only `Stage-` with a number, closed, and a
  space before the line (a bracketed word inside a message, `[Stage 2/4]`, stays as written)
- moreutils' `ts` with an ISO format and no zone (`ts '%Y-%m-%dT%H:%M:%.S'`, `ts '%FT%T'`):
  `2026-03-01T10:22:33.120334 [rank3]: Traceback ...` - kept like a collector's time (with a
  zone, `ts '%FT%T%z'`, it is one); a program's own logging header can open with the same
  time, so a time followed by what such a header writes next (a level, `- trainer - ERROR -`,
  `[rank3] INFO`, `pid=4121 INFO`) stays for the formats to read, unless the level is followed
  by a time of its own (vLLM's `ERROR 01-13 23:45:56 [...]`) or opens a CANN log's record
  (`[ERROR] RUNTIME(...)`)
- a collector's local time, written without a zone and with a space (`2025-06-11 09:02:44 `), in
  front of a line that is plainly another writer's: torch's rank tag (`2025-06-11 09:02:44
  [rank3]: torch.OutOfMemoryError: ...`) or logging's default record (`2025-06-11 09:02:44
  DEBUG:filelock:Lock ... acquired`). A web console's time column may show the time of day
  alone, to the millisecond (`18:19:06.687 [rank2]:[F205 ...] ...`), and is read the same way.
  The time is kept like a collector's; a time followed by anything else is a logging header of
  the process's own (`2025-06-11 09:02:44 ERROR ...`) and stays for the formats to read
- a cluster scheduler's trial log (Determined), which stores each line a trial's container
  wrote with its own time, the container's short id and, for a training process, the rank the
  launcher gave it: `[2025-03-02T08:14:51.120334Z] 3c9d01ab [rank=1] || [E ProcessGroupNCCL.cpp:828]
  ...`; the launcher's own lines in the container carry no rank (`[...Z] 3c9d01ab || WARNING:
  torch.distributed.elastic...`). The time is kept like a collector's, the rank is the
  process's, the container and rank are the writer; only a bracketed ISO time followed by the
  `||` bar (after an optional hex id and rank), so a log line whose message holds `||` stays
  as written
- pytest's failure report, which prints the text of the exception a test raised (and what the
  code under test wrote to it) behind a capital `E` and padding to the traceback's indent:
  `E       RuntimeError: ...`, `E   loc("kernel.mlir":12:3): error: ...` - only an `E` that
  stands alone before at least three spaces, so glog's `E0917 11:20:04` keeps its level letter
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats import outer_prefix
from analyzers.formats.base import CANN_RECORD_AFTER_LEVEL, ParsedLine
from analyzers.formats.timestamps import MONTH_NAMES
from analyzers.formats.worker_tags import process_tag, rank_of, srun_tag

_GREP_FILE = regex_programs.compile(r"[^\s:]+\.(?:log|txt):(?:\d+:)?(?=\[)")
_COLLECTOR_TIME = regex_programs.compile(outer_prefix.COLLECTOR_TIME + outer_prefix.AFTER)
# what a program's own logging header writes after its time (`formats.pylogging`): an optional
# pid, rank tag or logger name, then the level (not basicConfig's `ERROR:root:`, which has no
# time of its own), unless a time of the program's follows the level (vLLM) or the level in
# brackets opens a CANN log's record or torch_npu's line
_LEVEL_WORD = r"(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b"
_OWN_HEADER_AFTER_TIME = (
    r"(?:\[?pid[=:]\d+\]?\s+|\[?\d{2,7}\]?\s+|\[(?i:local_?rank|rank)[ _]?\d+\]\s+"
    r"|-\s+[\w.]+\s+-\s+|\|\s+)?"
    r"(?:" + _LEVEL_WORD + r"(?!:\S|\s+\d\d-\d\d \d\d:)"
    r"|\[" + _LEVEL_WORD + r"\](?!\s+(?=\S)(?:" + CANN_RECORD_AFTER_LEVEL + r")))"
)
_TS_LOCAL_ISO = regex_programs.compile(
    outer_prefix.LOCAL_ISO_TIME + r"(?: (?!" + _OWN_HEADER_AFTER_TIME + r")|$)"
)
_GREP_LINE = regex_programs.compile(r"\d{1,7}:(?!\d)")
# the task's line after the label keeps its indent when that indent is whole pairs of spaces
# (a stack's frames, `  File ...`) or tabs (torch's list of a state dict's mismatches,
# `\tsize mismatch for ...`); `118:  File ...` (grep -n of an indented line, no space of its
# own after the colon) is a line number
# a task's empty line keeps its label (`3: ` or `3:`): it still ends the task's message
_SRUN_LABEL = regex_programs.compile(r" {0,4}\d{1,5}:(?: (?=\S|(?:  )+\S|\t+\S)| ?$)")
_SRUN_LABEL_ODD_INDENT = regex_programs.compile(r" {0,4}(\d{1,5}):  (?=\S)")
_VIEWER_LINE = regex_programs.compile(r" +\d{1,7}\t")
_KERNEL_LOG_LINE = regex_programs.compile(outer_prefix.KERNEL_LOG)
_COMPOSE = regex_programs.compile(r"([A-Za-z][\w.-]*)\s+\|(?:\s|$)")
_PDSH = regex_programs.compile(outer_prefix.PDSH + outer_prefix.AFTER)
_PROCESS_TAG = regex_programs.compile(
    r"\(([A-Za-z_][\w.:-]*(?: [A-Za-z_][\w.:-]*)?)(?: rank=(\d+))? pid=(\d+)(?:, ip=[^)]*)?\)\s?"
)
_BARE_PROCESS_TAG = regex_programs.compile(r"\(pid=(\d+)(?:, ip=[^)]*)?\) ?")
# a cloud launcher's node tag: node name, node rank (not a process's rank), pid, optional address
_NODE_TAG = regex_programs.compile(
    r"\((head|worker\d{1,5}), rank=(\d+), pid=(\d+)(?:, ip=[^)]*)?\) ?"
)
_RAY_DAEMON = regex_programs.compile(r"\((raylet|gcs_server|dashboard_agent)(?:, ip=[^)]*)?\)\s?")
_ORPHAN_SGR = regex_programs.compile(r"(?:\^\[)?\[\d{1,3}(?:[;:]\d{1,3})*m\s?")
# keeps the quoted line's own indent; a bare `>` is a blank line of the quote
_QUOTE = regex_programs.compile(r">[ \t]?(?=[ \t]*\S)|>[ \t]*$")
_TORCHRUN = regex_programs.compile(r"\[(rank|" + outer_prefix.AGENT_ROLE + r")(\d+)\]:\s?")
_MPI_TAG = regex_programs.compile(r"\[\d+,(\d+)\]<(?:stdout|stderr|stddiag)>:\s?")
# A platform's or collector's local time (seconds optional, no zone; or the time of day alone,
# with its fraction) before torch's rank tag or Python logging's default record: anywhere else
# such a time is the program's own header.
# (moreutils' `ts` with an ISO time, the `T` form, is `_TS_LOCAL_ISO`'s.)
_LOCAL_COLLECTOR_TIME = regex_programs.compile(
    r" ?(\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?|\d\d:\d\d:\d\d[.,]\d{1,9}) "
    r"(?=\[(?:rank|"
    + outer_prefix.AGENT_ROLE
    + r")\d+\]:|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[A-Za-z_][\w.]*:"
    r"| {0,4}\d{1,5}: (?=\S| \S)|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[,.]\d{3} )"
)
_SCHEDULER_TRIAL = regex_programs.compile(outer_prefix.SCHEDULER_TRIAL + outer_prefix.AFTER)
_BRACKETED_TIME = regex_programs.compile(outer_prefix.BRACKETED_TIME + outer_prefix.AFTER)
_JOURNAL = regex_programs.compile(outer_prefix.JOURNAL + outer_prefix.AFTER)
# what may follow a collector's time: a container runtime's stream and part flag (CRI), or
# rsyslog's host and program (its time is a collector's)
_AFTER_COLLECTOR_TIME = regex_programs.compile(
    r"(?:(stdout|stderr) [FP]|([A-Za-z0-9][\w.-]*) ([\w.@/-]+)\[(\d+)\]:)" + outer_prefix.AFTER
)
_KUBECTL = regex_programs.compile(outer_prefix.KUBECTL + r"(?: |$)")
_CI_STEP = regex_programs.compile(outer_prefix.CI_STEP + outer_prefix.AFTER)
_CI_BAR = regex_programs.compile(r"\|(?: |$)")
# Prefixes that can only start with one character are tried only there (every parsed line
# goes through this loop).
_STAGE_TAG = regex_programs.compile(r"\[Stage-\d{1,3}\] (?=\S)")
_BRACKETED_LINE = regex_programs.compile(
    r"\[\d{1,7}\] ?(?=\[(?:rank|" + outer_prefix.AGENT_ROLE + r")\d+\]:)"
)
_BY_FIRST_CHAR = {
    "[": (_ORPHAN_SGR, _STAGE_TAG),
    "^": (_ORPHAN_SGR,),
    ">": (_QUOTE,),
    "(": (_RAY_DAEMON,),
}
_ANY_START = (_GREP_FILE, _COMPOSE)
_TABLE_ROW = regex_programs.compile(
    r"\s*(?:\|\s*)*(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)"
    r" +\| (.*?)\s*\|$"
)
_REPEATED = regex_programs.compile(r"\s*\[repeated \d+x across cluster\]$")
# a tqdm frame: optional description, percent, bar, counts, [elapsed<left, rate, postfix];
# a loop that redraws its bar more than once before its next line (an update, then
# `set_postfix`) leaves several frames, their carriage returns read as blanks, all dropped
_FRAME = r"[^|\n]{0,120}?\d{1,3}%\|[^|\n]{0,120}\|[^\[\]\n]{0,40}\[[^\[\]\n]{0,300}\]"
_PROGRESS = regex_programs.compile(rf"(?:{_FRAME}\s+){{0,8}}{_FRAME}(?=\S)")
# a frame whose postfix shows a loss or gradient norm that went non-finite (`8.4s/it,
# step_loss=nan]`): that frame is the news, so it is not dropped as a wrapper of the next line
_NONFINITE_POSTFIX = regex_programs.compile(
    r"(?:it/s|s/it),[^\]\n]*?(?<![\w.])(?:\w*loss|grad_?norm)=(?:nan|[-+]?inf)\b", re.I
)
_PYTEST_FAILURE = regex_programs.compile(r"E {3,}(?=\S)")
# one code span of one or two backticks that is the whole line, trailing blanks aside
_CODE_SPAN = regex_programs.compile(r"(`{1,2})(?!`)([^`]*[^`\s][^`]*?)\1\s*$")
_PROGRESS_DOTS = regex_programs.compile(r"\.{3,}(?=[^.\s])")
_MAX_WRAPPERS = 6
_MODEL_SERVER_RELAY = regex_programs.compile(
    r"(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d{3}) \[(?:INFO|WARN|DEBUG) ?\] "
    r"(W-\d+-\S+-std(?:out|err)) (?:MODEL_LOG|org\.pytorch\.serve\.wlm\.WorkerLifeCycle) - "
)


def strip_wrappers(line: ParsedLine) -> None:
    """Peel wrappers off `line.message`, recording rank, pid and the writer's key."""
    for _ in range(_MAX_WRAPPERS):
        if not _peel_one(line):
            break
    if line.message.endswith("cluster]"):
        line.message = _REPEATED.sub("", line.message)


def _peel_one(line: ParsedLine) -> bool:
    text = line.message
    first = text[:1]
    if text[-1:] == "|" and _peel_table_row(line, text):
        return True
    if "%|" in text[:160] and _peel_progress(line, text):
        return True
    if first == "." and _peel_progress_dots(line, text):
        return True
    if first.isdigit() and (
        _peel_kernel_log_line(line, text)
        or _peel_collector_time(line, text)
        or _peel_ts_local_iso(line, text)
        or _peel_local_collector_time(line, text)
        or _peel_model_server_relay(line, text)
        or _peel_srun_label(line, text)
        or _peel_line_number(line, text)
    ):
        return True
    if first == " " and (
        _peel_viewer_line_number(line, text)
        or _peel_local_collector_time(line, text)
        or _peel_srun_label(line, text)
    ):
        return True
    if first == "[" and (
        _peel_mpi_tag(line, text)
        or _peel_bracketed_line_number(line, text)
        or _peel_scheduler_trial(line, text)
        or _peel_bracketed_time(line, text)
        or _peel_kubectl(line, text)
        or _peel_ci_step(line, text)
    ):
        return True
    if first == "|" and text[-1:] != "|" and _peel_ci_bar(line, text):
        return True
    if first == "E" and _peel_pytest_failure(line, text):
        return True
    if first == "`" and _peel_code_span(line, text):
        return True
    found = _TORCHRUN.match(text)
    if found:
        number = int(found.group(2))
        if found.group(1) == "rank":
            line.rank = number
            line.tags.pop("mpi_rank", None)  # torch's own rank, which a worker's tag keeps
        else:
            line.local_rank = number
        line.stream_key += found.group(0).rstrip()
        line.message = text[found.end() :]
        return True
    found = _PROCESS_TAG.match(text)
    if found:
        _take_process(line, found)
        return True
    if first == "(" and (_peel_bare_process_tag(line, text) or _peel_node_tag(line, text)):
        return True
    if first in _MONTH_INITIALS and _peel_journal(line, text):
        return True
    for pattern in _BY_FIRST_CHAR.get(first, ()) + _ANY_START:
        found = pattern.match(text)
        if found:
            line.stream_key += found.group(0).strip()
            line.message = text[found.end() :]
            return True
    return _peel_host(line, text)


def _peel_host(line: ParsedLine, text: str) -> bool:
    """pdsh's (or clush's) host label: the host is the writer, and the host the line's
    process ran on (the last label peeled is the innermost, where the line began)."""
    found = _PDSH.match(text)
    if found:
        line.stream_key += found.group(0).strip()
        line.tags["host"] = found.group(1)
        line.message = text[found.end() :]
    return found is not None


def _take_process(line: ParsedLine, found: re.Match[str]) -> None:
    """A Ray/vLLM process tag: its pid, and the rank its worker indices name alone (the
    others are settled for the whole bundle by `analyzers.timeline.worker_ranks`). Behind
    Open MPI's tag the worker's own tag decides: mpirun started the process that spawned the
    worker, so MPI's rank is that process's, not the worker's."""
    name, rank, pid = found.groups()
    line.pid = int(pid)
    line.tags["process"] = name
    line.tags["process_pid"] = pid
    line.stream_key += f"({name} {pid})"
    line.message = line.message[found.end() :]
    tag = process_tag(name, rank, pid)
    if tag is not None:
        line.tags["worker"] = tag
        if line.rank is None or "mpi_rank" in line.tags:
            line.rank = rank_of(tag, None)


def _peel_bare_process_tag(line: ParsedLine, text: str) -> bool:
    """An unnamed Ray worker's tag: its pid, and the process as the writer."""
    found = _BARE_PROCESS_TAG.match(text)
    if found:
        line.pid = int(found.group(1))
        line.stream_key += f"(pid {found.group(1)})"
        line.message = text[found.end() :]
    return found is not None


def _peel_node_tag(line: ParsedLine, text: str) -> bool:
    """A cloud launcher's node tag: the pid of the command it ran on that node, and the node
    (name and node rank) as the writer; the node rank is no rank of the job's processes."""
    found = _NODE_TAG.match(text)
    if found:
        name, node_rank, pid = found.groups()
        line.pid = int(pid)
        line.tags["process"] = name
        line.tags["node_rank"] = node_rank
        line.stream_key += f"({name} {pid})"
        line.message = text[found.end() :]
    return found is not None


def _peel_code_span(line: ParsedLine, text: str) -> bool:
    """A Markdown code span around the whole line: the words inside are the line pasted."""
    found = _CODE_SPAN.match(text)
    if found:
        line.message = found.group(2).strip()
    return found is not None


def _peel_pytest_failure(line: ParsedLine, text: str) -> bool:
    """pytest's marker of a failure's text: the test process is still the writer, so it
    stays out of the stream key."""
    found = _PYTEST_FAILURE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_mpi_tag(line: ParsedLine, text: str) -> bool:
    """Open MPI's output tag names the rank (MPI's rank is the job's) and the stream."""
    found = _MPI_TAG.match(text)
    if found:
        line.rank = int(found.group(1))
        line.tags["mpi_rank"] = found.group(1)
        line.stream_key += found.group(0).rstrip()
        line.message = text[found.end() :]
    return found is not None


def _peel_scheduler_trial(line: ParsedLine, text: str) -> bool:
    """A scheduler's trial-log prefix: its time is kept like a collector's, the rank it names is
    the process's, and the container with that rank is the writer."""
    found = _SCHEDULER_TRIAL.match(text)
    if found:
        stamp, container, rank = found.groups()
        line.tags.setdefault("collector_time", stamp)
        if rank is not None:
            line.rank = int(rank)
        line.stream_key += f"{container or ''}[rank={rank or ''}]"
        line.message = text[found.end() :]
    return found is not None


def _peel_bracketed_time(line: ParsedLine, text: str) -> bool:
    """A CI console's bracketed time (Jenkins' Timestamper): kept like a collector's."""
    found = _BRACKETED_TIME.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.message = text[found.end() :]
    return found is not None


_MONTH_INITIALS = frozenset(name[0] for name in MONTH_NAMES)


def _peel_journal(line: ParsedLine, text: str) -> bool:
    """A journal or syslog line: its host and program (with the pid) are the writer."""
    found = _JOURNAL.match(text)
    if found:
        host, program, pid = found.groups()
        line.tags.setdefault("collector_time", text[: found.start(1) - 1])
        if pid is not None:
            line.pid = int(pid)
        line.stream_key += f"{host} {program}[{pid or ''}]"
        _note_host(line, host)
        line.message = text[found.end() :]
    return found is not None


# What moreutils' `ts` may put before a program's own `LEVEL logger: ...`, read in the journal's
# shape (`Dec 04 10:00:05 INFO root: ...`): a level word is no host.
_NOT_HOSTS = frozenset(("DEBUG", "INFO", "WARN", "WARNING", "ERROR", "CRITICAL", "FATAL"))


def _note_host(line: ParsedLine, host: str) -> None:
    """The journal and syslog name the machine that logged the line, as pdsh's label does
    (`scan.host_labels`); a label peeled after it, inside, is where the line began."""
    if host.upper() not in _NOT_HOSTS:
        line.tags["host"] = host


def _peel_srun_label(line: ParsedLine, text: str) -> bool:
    """`srun --label` numbers each task's lines; the task is the writer, so its number joins
    the stream key. It is not taken as a rank here (with one launcher per node it names the
    node): the task is kept as a worker tag, which gets a rank only when the task's own lines
    state one (`timeline.worker_ranks`)."""
    found = _SRUN_LABEL.match(text)
    if found:
        task = found.group(0).strip()
        line.stream_key += f"srun{task}"
        line.tags.setdefault("worker", srun_tag(int(task[:-1])))
        line.message = text[found.end() :]
        return True
    found = _SRUN_LABEL_ODD_INDENT.match(text)
    if found:
        # `0:  norm passed`: the task's line indented by one space, or grep -n's number before
        # a line indented by two; the number is peeled either way (the two spaces kept, as
        # grep's reading has them), and kept as a worker tag
        # (no stream key: grep's numbers differ on every line, and the frames of a traceback
        # it numbered are still one writer's). A task that states its rank gives it a rank.
        line.tags.setdefault("worker", srun_tag(int(found.group(1))))
        line.message = text[found.end(1) + 1 :]
        return True
    return False


def _peel_line_number(line: ParsedLine, text: str) -> bool:
    found = _GREP_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_viewer_line_number(line: ParsedLine, text: str) -> bool:
    """A gutter number differs on every line, so unlike a writer's tag it stays out of the
    stream key: the lines it numbers still belong to one writer."""
    found = _VIEWER_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_kernel_log_line(line: ParsedLine, text: str) -> bool:
    """A notebook platform's elapsed time and line number: both change on every line, so
    they stay out of the stream key, like a gutter number."""
    found = _KERNEL_LOG_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_bracketed_line_number(line: ParsedLine, text: str) -> bool:
    """A viewer's bracketed line number before torch's rank tag: like a gutter number it
    changes on every line, so it stays out of the stream key; the tag after it names the
    writer."""
    found = _BRACKETED_LINE.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_progress(line: ParsedLine, text: str) -> bool:
    """A progress bar's last frame in front of the line a process wrote after it: the bar
    says how far a loop got, the text after it is what the process logged next."""
    if _TORCHRUN.match(text):
        # a launcher's tag in front of the bar (`[default0]:Epoch 1:  17%|...`): the tag is
        # peeled first, else the bar's description would swallow it and the rank with it
        return False
    found = _PROGRESS.match(text)
    if found is None or _NONFINITE_POSTFIX.search(found.group(0)):
        return False
    line.message = text[found.end() :]
    return True


def _peel_progress_dots(line: ParsedLine, text: str) -> bool:
    """A compiler's progress dots in front of the line a process wrote after them: the dots
    only say work went on, the text after them is the record."""
    found = _PROGRESS_DOTS.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_table_row(line: ParsedLine, text: str) -> bool:
    """A viewer's table row: only a row whose time cell comes before the record and whose bar
    closes it, so a loguru line (`<time> | ERROR | ...`, no closing bar) and tables of other
    data (npu-smi, launcher summaries: no time cell first) keep their own readings."""
    found = _TABLE_ROW.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.message = found.group(2)
    return found is not None


def _peel_model_server_relay(line: ParsedLine, text: str) -> bool:
    """A model server's record of a worker's line: the worker's thread is the writer, the
    record's time is kept, its level (the relay's) is not."""
    found = _MODEL_SERVER_RELAY.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.stream_key += found.group(2)
        line.message = text[found.end() :]
    return found is not None


def _peel_local_collector_time(line: ParsedLine, text: str) -> bool:
    """A platform's time before torch's rank tag (the tag, peeled next, names the writer) or
    before logging's default record."""
    found = _LOCAL_COLLECTOR_TIME.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.message = text[found.end() :]
    return found is not None


def _peel_collector_time(line: ParsedLine, text: str) -> bool:
    """A collector's time; a container runtime's stream, or rsyslog's host and program, after
    it go with it (they are the writer)."""
    found = _COLLECTOR_TIME.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(0).strip())
        end = found.end()
        if found.group(0)[-1:] == " " and (text.startswith("std", end) or "]:" in text):
            after = _AFTER_COLLECTOR_TIME.match(text, end)
            if after:
                stream, host, program, pid = after.groups()
                if stream is None:
                    line.pid = int(pid)
                    line.stream_key += f"{host} {program}[{pid}]"
                    _note_host(line, host)
                else:
                    line.stream_key += stream
                end = after.end()
        line.message = text[end:]
    return found is not None


def _peel_ts_local_iso(line: ParsedLine, text: str) -> bool:
    """moreutils' `ts` with an ISO format and no zone: its time is kept like a collector's;
    the stamp names no writer."""
    found = _TS_LOCAL_ISO.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(0).strip())
        line.message = text[found.end() :]
    return found is not None


def _peel_ci_step(line: ParsedLine, text: str) -> bool:
    """A CI runner's step output: the job is the writer."""
    found = _CI_STEP.match(text)
    if found:
        line.stream_key += f"[{found.group(1)}]"
        line.message = text[found.end() :]
    return found is not None


def _peel_ci_bar(line: ParsedLine, text: str) -> bool:
    """The bar a CI runner writes alone on a terminal: it names no writer."""
    found = _CI_BAR.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def _peel_kubectl(line: ParsedLine, text: str) -> bool:
    """`kubectl logs --prefix`: the pod and its container are the writer."""
    found = _KUBECTL.match(text)
    if found:
        line.stream_key += found.group(0).rstrip()
        line.message = text[found.end() :]
    return found is not None
