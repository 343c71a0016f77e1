"""The time a log collector, a platform or a relaying server stamps in front of a process's line.

`formats.wrappers` peels these; each peeler here keeps the stamp in `tags["collector_time"]`
(the program's own time, if its header has one, still wins) and names the writer only when the
stamp comes with one (a container runtime's stream, the journal's host and program, a
scheduler's container, a model server's worker thread). A time that a program's own logging
header can open with is peeled only where what follows it shows it is not that header.
Seen in real reports:

- a log collector's own time (`kubectl logs --timestamps`, Loki/Fluentd exports):
  `2025-07-03T14:20:51.565839352Z (Worker pid=9) ERROR ...` - kept in `tags["collector_time"]`;
  Jenkins' Timestamper writes it in brackets: `[2025-07-03T14:20:51.565Z] [rank3]: ...`
- a container runtime's log file (the CRI format containerd and CRI-O write under
  `/var/log/pods/`): `2025-07-03T14:20:51.565839352Z stderr F [rank3]: ...` - the time kept like
  a collector's, the stream joins the writer's key; `P` marks a part of a line the runtime split
- the system journal or syslog, for a job run as a service (`journalctl -u serve`, a copy of
  /var/log/syslog): `Mar 01 10:00:05 node3 python[4121]: ...` - month, day, time, host,
  program and its pid; the time is kept like a collector's (the year comes from the file), the
  host in `tags["host"]` like pdsh's;
  rsyslog's high-precision file format writes the time as a collector does, with its zone,
  and always names the pid: `2025-03-02T08:14:51.120334+00:00 node3 python3[4121]: ...`
- a platform's time written with a space, seconds optional, in front of torch's rank tag
  (a job console's export, `ts '%F %T'`): `2025-02-18 12:54 [rank8]:[E218 04:54:22...] ...`,
  sometimes with one space before it - kept like a collector's time; only before the rank
  tag, since a time then a level or a logger is Python logging's own header
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
- a model server's frontend relaying what its Python workers print (TorchServe's log4j
  records): `2026-03-01T10:00:05,118 [INFO ] W-9001-resnet_1.0-stdout MODEL_LOG - <the
  worker's line>`, the logger `org.pytorch.serve.wlm.WorkerLifeCycle` in older releases, a
  worker's stderr at `[WARN ]`; the level is the frontend's choice for a relayed stream, not
  the worker's, so it goes with the prefix and the worker's words are read like any untagged
  stream line (as torch's rank tag inside a trainer's INFO record, `formats.lines`); the
  thread name (worker port, model, stream) is the writer and the time is kept like a
  collector's. The frontend's own records (`[ERROR] W-9001-resnet_1.0 org.pytorch.serve.wlm.
  WorkerThread - ...`) keep their level
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats import outer_prefix
from analyzers.formats.base import CANN_RECORD_AFTER_LEVEL, ParsedLine
from analyzers.formats.timestamps import MONTH_NAMES

_COLLECTOR_TIME = regex_programs.compile(outer_prefix.COLLECTOR_TIME + outer_prefix.AFTER)
# what a program's own logging header writes after its time (`formats.logging_headers`): an optional
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

_MODEL_SERVER_RELAY = regex_programs.compile(
    r"(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d{3}) \[(?:INFO|WARN|DEBUG) ?\] "
    r"(W-\d+-\S+-std(?:out|err)) (?:MODEL_LOG|org\.pytorch\.serve\.wlm\.WorkerLifeCycle) - "
)


def peel_scheduler_trial(line: ParsedLine, text: str) -> bool:
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


def peel_bracketed_time(line: ParsedLine, text: str) -> bool:
    """A CI console's bracketed time (Jenkins' Timestamper): kept like a collector's."""
    found = _BRACKETED_TIME.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.message = text[found.end() :]
    return found is not None


# The journal's time opens with a month's name: only such a line is tried as the journal's.
MONTH_INITIALS = frozenset(name[0] for name in MONTH_NAMES)


def peel_journal(line: ParsedLine, text: str) -> bool:
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


def peel_model_server_relay(line: ParsedLine, text: str) -> bool:
    """A model server's record of a worker's line: the worker's thread is the writer, the
    record's time is kept, its level (the relay's) is not."""
    found = _MODEL_SERVER_RELAY.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.stream_key += found.group(2)
        line.message = text[found.end() :]
    return found is not None


def peel_local_collector_time(line: ParsedLine, text: str) -> bool:
    """A platform's time before torch's rank tag (the tag, peeled next, names the writer) or
    before logging's default record."""
    found = _LOCAL_COLLECTOR_TIME.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(1))
        line.message = text[found.end() :]
    return found is not None


def peel_collector_time(line: ParsedLine, text: str) -> bool:
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


def peel_ts_local_iso(line: ParsedLine, text: str) -> bool:
    """moreutils' `ts` with an ISO format and no zone: its time is kept like a collector's;
    the stamp names no writer."""
    found = _TS_LOCAL_ISO.match(text)
    if found:
        line.tags.setdefault("collector_time", found.group(0).strip())
        line.message = text[found.end() :]
    return found is not None
