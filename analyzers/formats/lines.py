"""Split one log line into wrappers, header (level, time, pid, rank) and message.

Formats nest: `(Worker_TP1 pid=88362) ERROR 01-13 23:45:56 [multiproc_executor.py:294] [ERROR]
2027-01-13-23:45:56 (PID:88362, Device:1, RankID:-1) ERR00100 PTA call acl api failed.` is a
vLLM header around a torch_npu PTA line, so wrappers and headers are peeled in rounds; the
innermost level, source and time win because they are the most specific; a quiet level a
relaying logger stamped on a worker's tagged line (`- INFO - [rank7]: ...`) is dropped. A JSON-lines object
(`formats.jsonlines`) is one such round: its message is peeled further; so is a structlog
key=value record (`formats.keyvalue`).
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats import (
    bare_stamp,
    d2log,
    epoch_stamp,
    ggml,
    glog,
    hiplog,
    jsonlines,
    keyvalue,
    logging_headers,
    macalog,
    neuron_rt,
    outer_prefix,
    plog,
    pylogging,
    richlog,
    syslog,
    torch_npu,
    trtllm_log,
    ttlog,
    ucxlog,
)
from analyzers.formats.base import (
    QUIET_LEVELS,
    RELAYED_ENGINES,
    Header,
    ParsedLine,
    normal_level,
)
from analyzers.formats.timestamps import parse_time
from analyzers.formats.worker_tags import bracket_tag, pid_tag, rank_of
from analyzers.formats.wrappers import strip_wrappers

HEADERS: tuple[Header, ...] = (
    *plog.HEADERS,
    *torch_npu.HEADERS,
    *glog.HEADERS,
    *ggml.HEADERS,
    *neuron_rt.HEADERS,
    *ttlog.HEADERS,
    *hiplog.HEADERS,
    *macalog.HEADERS,
    *ucxlog.HEADERS,
    *trtllm_log.HEADERS,
    *d2log.HEADERS,
    *logging_headers.HEADERS,
    *epoch_stamp.HEADERS,
    *richlog.HEADERS,
    *syslog.HEADERS,
)
_ROUNDS = 3
_RANK_IN_TEXT = regex_programs.compile(r"\bRank\[(\d+)\]")
# A job that writes its own rank before each message, as ranks sharing one stdout do
# (`rank 3:   norm passed`; with a time in front, `formats.logging_headers` reads both). The label
# stays in the message (a signature may quote it); it only says who wrote the line.
# The same label in brackets (`[rank 3]  norm passed`) is read alike, and so is Lightning's
# `rank_prefixed_message` (`[rank: 3] Seed set to 42`), which its console handler writes after
# the record's level alone (`INFO: [rank: 3] ...`): ranks of one node sharing a file are told
# apart by it. The label may end in a bar instead of a colon (`rank 3 | norm passed`), and a
# time since the start may stand before it (logging's `%(relativeCreated)`: `[  2177.1ms]
# rank 3 | ...`, or seconds `[   3.217] rank 3: ...`): it names no wall-clock time, so no
# header reads it, and the label after it still says who wrote the line. So may a time of
# day alone, bracketed or not (`09:41:07 [rank 3] ...`): without a date no header reads it.
# The time since the start may also stand bare in a column of its own, padded and closed by a
# bar as `%(relativeCreated)8.1f ms |` writes it (`  6604.5 ms | rank 2 | layer 1 passed`);
# bare, it needs its unit, so a count before the label (`42 | rank 2 |`) names no writer.
_RANK_LABEL = regex_programs.compile(
    r"(?:\[ *\d+(?:\.\d+)? ?(?:ms|s)?\] ?|\[?\d\d:\d\d:\d\d(?:[.,]\d{1,6})?\]? "
    r"| *\d+(?:\.\d+)? ?(?:ms|s) \| )?"
    r"(?:[Rr]ank ?(\d{1,6})(?::| \|)\s|(?:(?:DEBUG|INFO|WARNING|ERROR|CRITICAL): )?\[[Rr]ank:? ?(\d{1,6})\]\s)"
)
# A trainer that forwards its workers' output through its own logger writes every worker line
# as an INFO record (`2025-10-31 03:11:02,474 - Trainer - INFO - [rank7]: RuntimeError: ...`).
# The torch rank tag inside the record says the rest is the worker's stream: the record's
# quiet level is the relay's choice, so the worker's line is read by its words like any
# untagged stream line. A level the worker's own header gives afterwards still wins.
_RELAYED = regex_programs.compile(r"\[(?:rank|" + outer_prefix.AGENT_ROLE + r")\d+\]:")
# A serving frontend that runs an inference engine as its child process can record every line
# the child prints as a log record of its own, the engine's name in capitals in front
# (`2026-02-11T08:01:17.204Z  INFO frontend::engine: SGLANG: Traceback (most recent call
# last):`). The record's level is the frontend's guess (its own INFO, or WARN for the child's
# stderr; a child line whose level it cannot place is filed at INFO), not the child's, so the
# tag joins the writer's key and the rest is read like the child's own stream line: a level
# the child's header still carries decides, else its words do. Only a level set by a header
# before the tag makes it a relay (`VLLM: 0.8.4` alone in a print stays as written).
_ENGINE_RELAY = regex_programs.compile("(?:" + "|".join(RELAYED_ENGINES) + r"): (?=\S)")


def parse_line(text: str) -> ParsedLine:
    line = ParsedLine(text=text, message=text.rstrip())
    for _ in range(_ROUNDS):
        before = len(line.stream_key)
        strip_wrappers(line)
        if line.level in QUIET_LEVELS and _RELAYED.match(line.stream_key, before):
            line.level = None  # the quiet level was the relay's, not the worker's
        if line.level is not None and _peel_engine_relay(line):
            continue  # the child's line may carry its own header
        if line.message[:1] == "{" and jsonlines.take(line):
            continue  # the object's message may carry its own prefixes
        if line.message.lstrip()[:1] == '"' and jsonlines.take_member(line):
            continue
        if "event=" in line.message and keyvalue.take(line):
            continue  # structlog's key=value record: its event is the message
        if not _take_header(line):
            break
    if line.source == torch_npu.CANN:
        line.time = line.time or parse_time(line.message)
        line.pid = line.pid or torch_npu.headline_pid(line.message)
    if line.time is None and "collector_time" in line.tags:
        line.time = parse_time(line.tags["collector_time"])
        line.collected = line.time is not None
    if line.time is None and line.source is None:
        bare_stamp.take(line)
    if line.rank is None:
        found = _RANK_LABEL.match(line.message) or _RANK_IN_TEXT.search(line.message)
        if found:
            line.rank = int(next(group for group in found.groups() if group is not None))
    return line


def _peel_engine_relay(line: ParsedLine) -> bool:
    """A frontend's record of its engine child's line: the engine's tag is the writer, the
    record's level (the frontend's) is dropped."""
    found = _ENGINE_RELAY.match(line.message)
    if found is None:
        return False
    line.stream_key += found.group().rstrip()
    line.message = line.message[found.end() :]
    line.level = None
    return True


_order = list(range(len(HEADERS)))  # most recently matched header first: files repeat one
_NAMED_GROUP = regex_programs.compile(r"\(\?P<\w+>")
_GROUP_REFERENCE = regex_programs.compile(r"\\[1-9]|\(\?\(|\(\?P=")


def header_union(headers: tuple[Header, ...]) -> re.Pattern[str] | None:
    """One pattern that matches a line's start where any of `headers` does, or None when
    they cannot be joined (a pattern that refers back to a group).

    Most lines are tried twice: once to peel their header, once more to find none is left,
    and that second round tried every header in turn, dozens of calls a line; one call of
    the union tells the same. Group names are dropped: two headers name the same fields.
    """
    sources = [head.pattern.pattern for head in headers]
    if any(_GROUP_REFERENCE.search(source) for source in sources):
        return None
    try:
        return regex_programs.compile(
            "|".join(f"(?:{_NAMED_GROUP.sub('(?:', s)})" for s in sources)
        )
    except re.error:
        return None


# Compiled as the module loads (~10 ms): scanner processes forked later share it.
_ANY_HEADER = header_union(HEADERS)


def _stamped_before(text: str, stamp: str, head: str) -> bool:
    """Whether `stamp` is what stands right before the header `head` matched (and not an
    outer stamp, with the program's own between them)."""
    at = text.find(head.strip())
    return at > 0 and text[:at].rstrip().endswith(stamp)


def _take_header(line: ParsedLine) -> bool:
    """Apply the first header that matches; False when none does or it consumed nothing.

    Headers never overlap in what they match, so trying the last winner first only saves time.
    """
    if _ANY_HEADER is not None and _ANY_HEADER.match(line.message) is None:
        return False
    for position, index in enumerate(tuple(_order)):  # a snapshot: other threads may reorder
        head = HEADERS[index]
        found = head.pattern.match(line.message)
        if found:
            if position and _order[position] == index:
                _order.insert(0, _order.pop(position))
            _apply(line, head, found)
            line.message = line.message[found.end() :]
            if head.source == richlog.NAME:
                line.message = richlog.drop_path_column(line.message)
            elif found.group().endswith(pylogging.LOGFMT_OPEN):
                if head is pylogging.LOGFMT_ANY_ORDER:
                    pylogging.logfmt_pairs(line, found.group("pairs"))
                line.message = pylogging.logfmt_message(line.message)
            elif head in pylogging.OWN_STAMP_PEELED_FIRST:
                if head is pylogging.STRUCTLOG_CONSOLE:
                    pylogging.console_pairs(line)
                stamp = line.tags.get("collector_time")
                if (
                    stamp
                    and not found.group("ts")
                    and _stamped_before(line.text, stamp, found.group())
                ):
                    # the renderer's own time, peeled first like a collector's stamp
                    line.time = parse_time(line.tags.pop("collector_time"))
            return found.end() > 0
    return False


def _apply(line: ParsedLine, head: Header, found: re.Match[str]) -> None:
    fields = found.groupdict()
    source = line.source = head.source
    raw_level = fields.get("level")
    level = dict(head.levels).get(raw_level or "") if head.levels else normal_level(raw_level)
    if level:
        line.level = level
    if fields.get("ts"):
        line.time = parse_time(_glog_ts(source, fields["ts"], fields.get("level")))
    if fields.get("pid") and int(fields["pid"]) > 0:
        line.pid = int(fields["pid"])
    if fields.get("process_pid") and int(fields["process_pid"]) > 0:
        line.pid = int(fields["process_pid"])
        line.tags["worker"] = pid_tag(line.pid)
    rank = fields.get("rank")
    if rank is not None and int(rank) >= 0:
        line.rank = int(rank)
    if fields.get("module"):
        line.tags["module"] = fields["module"]
    if fields.get("worker"):
        line.tags["worker"] = tag = bracket_tag(fields["worker"])
        if line.rank is None:
            line.rank = rank_of(tag, None)


def _glog_ts(source: str, ts: str, level: str | None) -> str:
    """glog times only parse with their level letter in front (`E1129 07:25:37.49`)."""
    if source == richlog.NAME:
        return richlog.iso_time(ts)
    if source == glog.NAME and ts[0].isdigit() and " " in ts and "-" not in ts:
        return f"{level or 'I'}{ts}"
    return ts
