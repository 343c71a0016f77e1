"""torch elastic (torchrun) failure reports: the agent's per-child line and the summary.

    E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python

    torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
    ============================================================
    /root/train.py FAILED
    ------------------------------------------------------------
    Failures:
    [1]:
      time      : 2026-09-07_13:02:58
      host      : localhost
      rank      : 3 (local_rank: 3)
      exitcode  : -9 (pid: 20890)
      error_file: <N/A>
      traceback : Signal 9 (SIGKILL) received by PID 20890
    ------------------------------------------------------------
    Root Cause (first observed failure):
    [0]:
      ...

A paste that starts at the `Root Cause (first observed failure):` line, the header above it cut
off, is read as the same summary.

A child that wrote an error file (its entry point decorated with `@record`, as trainers built on
torchrun do) has its whole Python traceback quoted in the record, indented under the field:

      error_file: /tmp/torchelastic_x/none_y/attempt_0/0/error.json
      traceback : Traceback (most recent call last):
        File "/srv/train.py", line 95, in __init__
          mesh = dims.get_mesh("batch")
      RuntimeError: Backend fake does not yet support sequence numbers.

Those lines are the rank's own error, not the launcher's: they are handed on to the other
parsers (the traceback reader) with the record's rank, so the exception is read like the rank's
own output and the record's exit line stays the summary under it.

Both fill facts["elastic_failures"] with {rank, local_rank, exitcode, signal, pid, time,
root_cause}. "Root Cause" only means the first child to exit, not the fault; ranks killed
afterwards show -9/-15. Each summary record also becomes an ERROR event on its exitcode line
with a one-line message (`rank 1 (local_rank: 1) exitcode: -11 (pid: 26691) signal: SIGSEGV`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.exits import signal_named
from analyzers.core.types import Event, EventKind
from analyzers.formats.base import ParsedLine
from analyzers.formats.sink import Sink
from analyzers.formats.timestamps import parse_time

SOURCE = "elastic"

_AGENT_LINE = regex_programs.compile(
    r"failed \(exitcode: (?P<exitcode>-?\d+)\) local_rank: (?P<local_rank>\d+) \(pid: (?P<pid>\d+)\)"
)
_FIELD = regex_programs.compile(
    r"\s*(?P<key>time|host|rank|exitcode|error_file|traceback)\s*: ?(?P<value>.*)$"
)
# A paste that lost its line breaks glues the fields of a record into one line:
# `rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>`.
_GLUED = regex_programs.compile(
    r"(?<!\w)(?P<key>time|host|local[_ ]rank|rank|exitcode|error[_ ]file|traceback)"
    r"(?:\s*: ?|(?=\d))"
)
_RECORD = regex_programs.compile(r"\s*\[\d+\]:\s*$")
_ROOT_CAUSE = "Root Cause (first observed failure)"
_RANKS = regex_programs.compile(r"(-?\d+)(?: \(local_rank: (\d+)\))?")
_EXIT = regex_programs.compile(r"(-?\d+)(?: \(pid: (\d+)\))?")
_MAX_LINES = 400
_PY_TRACEBACK = "Traceback (most recent call last)"
# What ends a record's quoted traceback: the summary's own rules and markers, another field.
_SUMMARY_MARK = regex_programs.compile(r"(?:-{6,}|={6,}|Root Cause\b|Failures:)")


def signal_name(exitcode: int | None) -> str | None:
    """torch elastic reports death by signal N as exitcode -N."""
    if exitcode is None or exitcode >= 0:
        return None
    return signal_named(-exitcode)


@dataclass(slots=True)
class _Summary:
    start: int
    root_cause: bool = False
    record: dict[str, Any] | None = None
    record_line: int | None = None
    fields_seen: list[str] = field(default_factory=list)
    lines_read: int = 0  # lines fed since the start (a double-spaced paste's blanks are not)
    quoting: bool = False  # inside the record's quoted Python traceback (an error file's)


class ElasticTracker:
    def __init__(self) -> None:
        self._summary: _Summary | None = None
        self._failures: list[dict[str, Any]] = []
        # The agent's line names a local rank; its summary record of the same pid the global
        # one, which on a second node differs (each agent numbers its children from 0).
        self._agent_events: dict[int, Event] = {}

    def wants_more(self) -> bool:
        return self._summary is not None

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        message = line.message
        if "ChildFailedError" in message and self._summary is None:
            self._summary = _Summary(lineno)
            return False  # the exception line itself is the traceback parser's
        if self._summary is None and message.lstrip().startswith(_ROOT_CAUSE):
            # A paste cut below the summary's header: its root-cause record is still the
            # launcher's report, read as if the header had been kept.
            self._summary = _Summary(lineno)
        if self._summary is not None:
            return self._in_summary(lineno, line, sink)
        found = _AGENT_LINE.search(message)
        if not found:
            return False
        record = _agent_record(found, line)
        self._add(record, sink)
        event = sink.emit(lineno, line, EventKind.ERROR, rank=record["local_rank"])
        if record["pid"] is not None:
            self._agent_events[record["pid"]] = event
        return True

    def close_all(self, sink: Sink) -> None:
        """End of file: a summary cut short (a paste that stops after its last field) still
        reports the record it was reading."""
        if self._summary is not None:
            self._close_record(sink)
            self._summary = None

    def _in_summary(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        summary = self._summary
        assert summary is not None
        text = line.message.strip()
        summary.lines_read += 1
        if summary.quoting and _quoted_traceback_line(line.message, text):
            record = summary.record
            if record is not None and line.rank is None:
                line.rank = record.get("rank")
            return False  # the rank's own traceback: the other parsers read it
        summary.quoting = False
        if text.startswith("====") and summary.lines_read > 2:
            # the closing rule, also right under a record's last field: what follows is the
            # output's next line, not more of the summary
            self._close_record(sink)
            self._summary = None
        elif text.startswith("Root Cause"):
            self._close_record(sink)
            summary.root_cause = True
        elif _RECORD.match(line.message):
            self._close_record(sink)
            summary.record = {"root_cause": summary.root_cause}
        elif summary.record is not None and (found := _FIELD.match(line.message)):
            self._field(summary, lineno, line, found.group("key"), found.group("value"))
        elif summary.record is not None:
            for key, value in _glued_fields(line.message):
                self._field(summary, lineno, line, key, value)
        if self._summary is not None and lineno - summary.start > _MAX_LINES:
            self._summary = None
        return True

    def _field(
        self, summary: _Summary, lineno: int, line: ParsedLine, key: str, value: str
    ) -> None:
        record = summary.record
        assert record is not None
        if key == "time":
            stamp = parse_time(value)
            if isinstance(stamp, datetime):
                record["time"], record["_stamp"] = stamp.isoformat(), stamp
            else:
                record["time"] = value.strip()
        elif key == "rank" and (found := _RANKS.match(value)):
            record["rank"] = int(found.group(1))
            if found.group(2) is not None:
                record["local_rank"] = int(found.group(2))
        elif key == "traceback" and "To enable traceback" not in value:
            record["_traceback"] = value.strip()
            summary.quoting = value.strip().startswith(_PY_TRACEBACK)
        elif key == "exitcode" and (found := _EXIT.match(value)):
            record["exitcode"] = int(found.group(1))
            record["signal"] = signal_name(record["exitcode"])
            if found.group(2):
                record["pid"] = int(found.group(2))
            summary.record_line = lineno
            record["_line"] = (lineno, line)

    def _close_record(self, sink: Sink) -> None:
        summary = self._summary
        if summary is None or summary.record is None:
            return
        record, summary.record = summary.record, None
        where = record.pop("_line", None)
        stamp = record.pop("_stamp", None)
        detail = record.pop("_traceback", None)
        if "exitcode" not in record:
            return
        self._add(record, sink)
        if where is not None:
            lineno, line = where
            message = _describe(record) + (f" traceback: {detail}" if detail else "")
            event = sink.emit(
                lineno, line, EventKind.ERROR, source=SOURCE, message=message, rank=record["rank"]
            )
            event.timestamp = event.timestamp or stamp

    def _add(self, record: dict[str, Any], sink: Sink) -> None:
        for key in ("rank", "local_rank", "exitcode", "signal", "pid", "time"):
            record.setdefault(key, None)
        record.setdefault("root_cause", False)
        same = next((r for r in self._failures if r["pid"] and r["pid"] == record["pid"]), None)
        if same is not None:
            merged = {k: (v if v is not None else same.get(k)) for k, v in record.items()}
            merged["root_cause"] = bool(same["root_cause"] or record["root_cause"])
            same.update(merged)
            agent_event = self._agent_events.get(same["pid"])
            if agent_event is not None and same["rank"] is not None:
                agent_event.rank = same["rank"]
            return
        self._failures.append(record)
        sink.add_fact("elastic_failures", record)


def _quoted_traceback_line(message: str, text: str) -> bool:
    """A line of a record's quoted Python traceback: any line up to the summary's own next
    line (a rule, the next record, another field) or a blank one."""
    if not text:
        return False
    return not (_SUMMARY_MARK.match(text) or _RECORD.match(message) or _FIELD.match(message))


def _glued_fields(message: str) -> list[tuple[str, str]]:
    """The fields of a record glued into one line, when there are at least two of them."""
    keys = list(_GLUED.finditer(message))
    if len(keys) < 2:
        return []
    ends = [k.start() for k in keys[1:]] + [len(message)]
    return [(k.group("key"), message[k.end() : end]) for k, end in zip(keys, ends, strict=True)]


def _agent_record(found: re.Match[str], line: ParsedLine) -> dict[str, Any]:
    exitcode = int(found.group("exitcode"))
    return {
        "rank": None,
        "local_rank": int(found.group("local_rank")),
        "exitcode": exitcode,
        "signal": signal_name(exitcode),
        "pid": int(found.group("pid")),
        "time": line.time.isoformat() if isinstance(line.time, datetime) else None,
        "root_cause": False,
    }


def _describe(record: dict[str, Any]) -> str:
    parts = [f"ChildFailedError: rank {record['rank']}"]
    if record.get("local_rank") is not None:
        parts.append(f"(local_rank: {record['local_rank']})")
    parts.append(f"exitcode: {record['exitcode']}")
    if record.get("pid") is not None:
        parts.append(f"(pid: {record['pid']})")
    if record.get("signal"):
        parts.append(f"signal: {record['signal']}")
    if record.get("root_cause"):
        parts.append("[root cause: first observed failure]")
    return " ".join(parts)
