"""An error headline whose message sits on the indented lines below it.

    CMake Error at cmake/toolkit.cmake:41 (message):       <- headline: says only where
      the Ascend toolkit was not found under /opt/ascend,  <- message, indented deeper
      set ASCEND_HOME_PATH
                                                           <- a blank or shallower line ends it
    -- Configuring incomplete, errors occurred!

Build tools (CMake, compilers' notes) print a diagnostic this way; the headline alone names
no failure. A library exception quoted with its text moved below the word that opens it
(oneCCL's `oneCCL: coll_param.cpp:452 validate: EXCEPTION:` over an indented `average
operation is not supported ...`) is the same shape: the upper-case `EXCEPTION:` ending the
line opens it too. It becomes one ERROR event at the headline whose message is the headline
and its indented lines joined. Python tracebacks and CANN blocks have their own trackers, which
see their lines first.

NCCL's exceptions end the same way with the reason on the next line, not indented:

    ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
    Last error:                                            <- header: says nothing itself
    Duplicate GPU detected : rank 5 and rank 1 both on ... <- NCCL's last warning, repeated

That line is NCCL's own account of the failure and often holds no error word; it becomes an
ERROR event of its own, and the bare header none.

An error object printed one member a line ends the same way: a notebook front end's copy of a
failed cell's error (VS Code's Jupyter output) names the exception, then gives its text in the
next member, and a saved notebook's error output does so as `ename`/`evalue`:

    {
        "name": "RuntimeError",                            <- header: the exception's class
        "message": "indices should be either on cpu or on the same device as the indexed
                    tensor (cuda:0)",                      <- its text, often no error word
        "stack": "-----...

The message member (unquoted by `formats.jsonlines.take_member`) becomes an ERROR event read as
the exception line it stands for (`RuntimeError: indices should be ...`), and the name none.

A fatal log line whose text stops at a colon can have its reason on the next line, printed
with no header of its own (a runtime's error string that begins with a line break, pasted as
two lines):

    [2019-08-14 23:17:42.137107: F byteps/common/shared_memory.cc:38] Check failed: e == cudaSuccess || e == cudaErrorCudartUnloading CUDA:
    OS call failed or operation not supported on this OS   <- the reason, no header
    Aborted (core dumped)                                  <- the process ending: no reason

The fatal line and its reason become one ERROR event at the fatal line, read as one message.
Only a line at the fatal level opens it (the program stops right after it, so the next line
is its own or the end); a next line with a header, an indent, a traceback or the process's
end notice is not joined.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzers.core import regex_programs
from analyzers.core.types import EventKind
from analyzers.formats import jsonlines
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.sink import Sink

_HEADLINE = regex_programs.compile(r"\berror\b.*:\s*$", re.IGNORECASE)
# a library's exception whose text was moved to the lines below (`...: EXCEPTION:`); Python's
# `... the following exception:` is a traceback's, in lower case, and not read here
_EXCEPTION_HEADLINE = regex_programs.compile(r"\bEXCEPTION:\s*$")
_LAST_ERROR = "Last error:"
# `"name": "RuntimeError",` / `"ename": "ValueError",`: an exception's class as an object member
_ERROR_NAME = regex_programs.compile(
    r'\s*"e?name"\s*:\s*"(?P<name>[A-Za-z_][\w.]*(?:Error|Exception))"\s*,?\s*$'
)
_MAX_LINES = 8
# a fatal line that stops at a colon: its reason may follow on the next, header-less line
_FATAL_LEVEL = "CRITICAL"
_DANGLING = regex_programs.compile(r"\S:\s*$")
# lines that end a process or open a structure, never a reason continued from the line above
_NOT_A_REASON = regex_programs.compile(
    r"(?:Aborted|Segmentation fault|Bus error|Killed|Traceback|Fatal Python error|terminate called)\b"
    r"|\*\*\*|[^\w(\[]"
)


@dataclass(slots=True)
class _Open:
    lineno: int
    line: ParsedLine
    indent: int
    parts: list[str] = field(default_factory=list)
    reason_next: bool = False  # NCCL's `Last error:`: the next line is the message
    error_name: str = ""  # an error object's `"name"` member: the next member is its message
    fatal_reason: bool = False  # a fatal line ending at a colon: the next bare line is its reason


class IndentedMessageTracker:
    def __init__(self) -> None:
        self._open: dict[str, _Open] = {}

    def wants_more(self) -> bool:
        return bool(self._open)

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        key, message = line.stream_key, line.message
        head = self._open.get(key)
        if head is not None and head.error_name:
            del self._open[key]
            if line.source == jsonlines.NAME:  # the message member, unquoted
                line.message = f"{head.error_name}: {message}"
                sink.emit(lineno, line, EventKind.ERROR)
                return True
        elif head is not None and head.fatal_reason:
            del self._open[key]
            if line.source is None and message.strip() and not _NOT_A_REASON.match(message):
                reason = message.strip()
                joined = f"{head.line.message.rstrip()} {reason}"
                event = sink.emit(head.lineno, head.line, EventKind.ERROR, message=joined)
                event.text = f"{event.text.rstrip()} {reason}"
                return True
            sink.emit(head.lineno, head.line, EventKind.ERROR)
        elif head is not None and head.reason_next:
            del self._open[key]
            if message.strip() and line.level not in QUIET_LEVELS:
                sink.emit(lineno, line, EventKind.ERROR)
                return True
        elif head is not None:
            if message.strip() and _lead(message) > head.indent and len(head.parts) < _MAX_LINES:
                head.parts.append(message.strip())
                return True
            self.close(key, sink)
        if line.level in QUIET_LEVELS or line.level == "WARNING":
            return False
        named = _ERROR_NAME.match(message)
        if named is not None:
            self._open[key] = _Open(lineno, line, _lead(message), error_name=named["name"])
            return True
        if message.strip() == _LAST_ERROR:
            self._open[key] = _Open(lineno, line, _lead(message), reason_next=True)
            return True
        if _HEADLINE.search(message) or _EXCEPTION_HEADLINE.search(message):
            self._open[key] = _Open(lineno, line, _lead(message))
            return True
        if line.level == _FATAL_LEVEL and _DANGLING.search(message):
            self._open[key] = _Open(lineno, line, _lead(message), fatal_reason=True)
            return True
        return False

    def close(self, key: str, sink: Sink) -> None:
        head = self._open.pop(key, None)
        if head is None or head.reason_next or head.error_name:
            return
        if head.fatal_reason:  # nothing followed: the fatal line alone
            sink.emit(head.lineno, head.line, EventKind.ERROR)
            return
        message = " ".join([head.line.message.strip(), *head.parts])
        event = sink.emit(head.lineno, head.line, EventKind.ERROR, message=message)
        if head.parts:
            # the headline ends at its colon and names no failure: the cited line carries the
            # first indented line, which says what failed
            event.text = f"{event.text.rstrip()} {head.parts[0]}"

    def close_all(self, sink: Sink) -> None:
        for key in list(self._open):
            self.close(key, sink)


def _lead(message: str) -> int:
    return len(message) - len(message.lstrip(" \t"))
