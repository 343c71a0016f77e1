"""An error headline whose message sits on the indented lines below it.

    CMake Error at cmake/toolkit.cmake:41 (message):       <- headline: says only where
      the Ascend toolkit was not found under /opt/ascend,  <- message, indented deeper
      set ASCEND_HOME_PATH
                                                           <- a blank or shallower line ends it
    -- Configuring incomplete, errors occurred!

Build tools (CMake, compilers' notes) print a diagnostic this way; the headline alone names
no failure. It becomes one ERROR event at the headline whose message is the headline and
its indented lines joined. Python tracebacks and CANN blocks have their own trackers, which
see their lines first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzers.core.types import EventKind
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.sink import Sink

_HEADLINE = re.compile(r"\berror\b.*:\s*$", re.IGNORECASE)
_MAX_LINES = 8


@dataclass(slots=True)
class _Open:
    lineno: int
    line: ParsedLine
    indent: int
    parts: list[str] = field(default_factory=list)


class IndentedMessageTracker:
    def __init__(self) -> None:
        self._open: dict[str, _Open] = {}

    def wants_more(self) -> bool:
        return bool(self._open)

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        key, message = line.stream_key, line.message
        head = self._open.get(key)
        if head is not None:
            if message.strip() and _lead(message) > head.indent and len(head.parts) < _MAX_LINES:
                head.parts.append(message.strip())
                return True
            self.close(key, sink)
        if line.level in QUIET_LEVELS or line.level == "WARNING":
            return False
        if _HEADLINE.search(message):
            self._open[key] = _Open(lineno, line, _lead(message))
            return True
        return False

    def close(self, key: str, sink: Sink) -> None:
        head = self._open.pop(key, None)
        if head is None:
            return
        message = " ".join([head.line.message.strip(), *head.parts])
        sink.emit(head.lineno, head.line, EventKind.ERROR, message=message)

    def close_all(self, sink: Sink) -> None:
        for key in list(self._open):
            self.close(key, sink)


def _lead(message: str) -> int:
    return len(message) - len(message.lstrip(" \t"))
