"""The multi-line part of CANN error-manager output inside an exception text.

    AclNN_Parameter_Error(EZ1001):                      <- headline whose text follows
    Tensor scale not implemented for DT_FLOAT16,        <- continuation (one event, joined)
    should be in dtype support list
    (EZ1001): Scale not implemented for DT_BF16,        <- headline cut after a comma: the
    should be in dtype support list                        joined event is cited here, above
    E90003: Compile operator failed                     <- headline that only says a step failed
            float16 of tbe.dsl.vconv is not supported.          <- its reason (joined likewise)
            optype: [Cast]
    EZ9999: Inner Error!
    EZ9999[PID: 412] 2026-04-19-16:49:58.410.132 (EZ9999):  get unsupported atten_mask shape, ...
            TraceBack (most recent call last):           <- CANN's own call trace, one event per line
           fail to analyze context info.[FUNC:GetShapeAttrsInfo][FILE:...][LINE:199]
            Device[1] lost heartbeat.[FUNC:SyncTask][FILE:direct_hwts_engine.cc][LINE:877]

Older releases print some headlines as a bare "<step> failed" and the reason on the lines
below it, indented or not, with no TraceBack header; those lines are the headline's sentence,
read even though they hold no error word (the reason above is a TBE template check's).
Trace lines are read even when they carry no keyword (`Device[1] lost heartbeat.`), since the
prefilter alone would miss them; each becomes an ERROR event with source "cann".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzers.core import regex_programs
from analyzers.core.types import EventKind
from analyzers.formats.base import ParsedLine
from analyzers.formats.sink import Sink
from analyzers.formats.torch_npu import CANN, headline_has_text, is_open_headline

_TRACE_HEADER = regex_programs.compile(r"\s*TraceBack \(most recent call last\):\s*$")
_BLOCK_END = regex_programs.compile(
    r"\s*(?:Possible Cause|Solution|TraceBack)\b|E[0-9A-Z]\d{4}\b|\[PID:"
)
# c10's C++ backtrace (`frame #7: <unknown function> + 0xd29cc (...)`, `Exception raised from
# malloc at ...`): printed after an error text, never the rest of its sentence
_BACKTRACE = regex_programs.compile(r"frame #\d+: |Exception raised from \S")
# a headline whose whole text is that a step failed (`E90003: Compile operator failed`), with
# no reason after it: the reason follows on the next lines
_BARE_FAILURE = regex_programs.compile(
    r"^\s*E[0-9A-Z]\d{4}:\s*(?:\[PID: ?\d+\] \S+\s+)?[A-Za-z][A-Za-z ]{0,80}\bfailed\.?\s*$"
)
# what starts a record of its own, never a bare headline's reason: a Python traceback, an
# exception line, a bracketed header (`[ERROR] ...`, `[W ...]`)
_NEW_RECORD = regex_programs.compile(
    r"\s*(?:Traceback \(|File \"|\[|[A-Za-z_][\w.]*(?:Error|Exception|Warning)\b:?)"
)
_MAX_CONTINUATION = 6
_MAX_TRACE = 60


@dataclass(slots=True)
class _Headline:
    lineno: int
    line: ParsedLine
    bare: bool = False  # "<step> failed" alone: its reason may be indented below it
    # the headline holds the start of its sentence (cut after a comma): the joined event is
    # cited at the headline, the line with the code, not at the wrapped tail below it
    has_text: bool = False
    parts: list[tuple[int, ParsedLine]] = field(default_factory=list)


class CannBlockTracker:
    def __init__(self) -> None:
        self._headlines: dict[str, _Headline] = {}
        self._traces: dict[str, int] = {}  # writer -> line where its CANN trace started

    def wants_more(self) -> bool:
        return bool(self._headlines or self._traces)

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        key, message = line.stream_key, line.message
        if key in self._headlines and self._continue_headline(lineno, line, sink):
            return True
        if _TRACE_HEADER.match(message):
            self._traces[key] = lineno
            return True
        if key in self._traces:
            return self._in_trace(lineno, line, sink)
        if is_open_headline(message):
            self._headlines[key] = _Headline(lineno, line, has_text=headline_has_text(message))
            return True
        if _BARE_FAILURE.match(message):
            self._headlines[key] = _Headline(lineno, line, bare=True)
            return True
        return False

    def _continue_headline(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        head = self._headlines[line.stream_key]
        message = line.message.strip()
        ended = (
            not message
            or _BLOCK_END.match(line.message)
            or _BACKTRACE.match(message)
            or (_ends_bare_headline(line) if head.bare else line.message[:1].isspace())
        )
        if not ended:
            head.parts.append((lineno, line))
        if ended or len(head.parts) >= _MAX_CONTINUATION:
            self.close(line.stream_key, sink)
        return not ended

    def close(self, key: str, sink: Sink) -> None:
        head = self._headlines.pop(key, None)
        if head is None:
            return
        if not head.parts:
            sink.emit(head.lineno, head.line, EventKind.ERROR, source=CANN)
            return
        first_no, first = (head.lineno, head.line) if head.has_text else head.parts[0]
        joined = " ".join(part.message.strip() for _, part in head.parts)
        message = f"{head.line.message.strip()} {joined}"
        sink.emit(first_no, first, EventKind.ERROR, source=CANN, message=message)

    def close_all(self, sink: Sink) -> None:
        for key in list(self._headlines):
            self.close(key, sink)
        self._traces.clear()

    def _in_trace(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        key, message = line.stream_key, line.message
        started = self._traces[key]
        if not message.strip() or not message[:1].isspace() or lineno - started > _MAX_TRACE:
            del self._traces[key]
            return False
        sink.emit(lineno, line, EventKind.ERROR, source=CANN, message=message.strip())
        return True


def _ends_bare_headline(line: ParsedLine) -> bool:
    """A line that cannot be the reason under a bare "<step> failed" headline: one with a
    level of its own, or the start of another record."""
    return line.level is not None or bool(_NEW_RECORD.match(line.message))
