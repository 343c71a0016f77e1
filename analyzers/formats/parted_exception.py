"""An exception's last line that two writers sharing a console cut in two.

Python writes an exception's last line in pieces: the type, then `: ` and the message. Two
ranks that share one console and fail at the same moment can leave one rank's type with the
other rank's next frame line glued after it and the `: <message>` alone on the line below:

    RuntimeError  File ".../base_model.py", line 144, in forward
    : CUDA out of memory. Tried to allocate 2.00 GiB

The glued line is the type and a frame, no failure of its own; the message line is read as
`<Type>: <message>` at its own line, so the knowledge sees the sentence with the type it was cut
from. A type whose message never follows within a few lines is read as the line it is.
Counterexample: a line that opens with `: ` and has no such type above it (a settings dump) is
no exception, and a frame whose function is named like an error (`in ReportError`) parts
nothing.
"""

from __future__ import annotations

from dataclasses import replace

from analyzers.core import regex_programs
from analyzers.core.types import EventKind
from analyzers.formats.base import ParsedLine
from analyzers.formats.sink import Sink

# an exception type with another writer's frame line glued after it; its `: message` follows
_PARTED_TYPE = regex_programs.compile(
    r'\s*(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt))[ \t]+File "[^"]+", line \d+'
)
_PARTED_MESSAGE = regex_programs.compile(r":[ \t]+(?P<text>\S.*?)\s*$")
_PARTED_WINDOW = 4  # lines after the parted type within which its message is looked for


class PartedTypes:
    """The parted types still waiting for their message, one per writer."""

    def __init__(self) -> None:
        # writer -> (line, parsed line, type) of an exception type whose message was pushed
        # below another writer's frame line
        self._pending: dict[str, tuple[int, ParsedLine, str]] = {}

    def __bool__(self) -> bool:
        return bool(self._pending)

    def joined(self, lineno: int, line: ParsedLine, sink: Sink) -> ParsedLine | None:
        """The exception line `<Type>: <message>` when `line` is the message a parted type of
        its writer waits for; a type that waited past its window is read as its own line."""
        key = line.stream_key
        pending = self._pending.get(key)
        if pending is None:
            return None
        found = _PARTED_MESSAGE.match(line.message)
        if found is not None:
            del self._pending[key]
            return replace(line, message=f"{pending[2]}: {found['text']}")
        if lineno - pending[0] > _PARTED_WINDOW:
            self._flush(key, sink)
        return None

    def holds(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """Whether `line` is a parted type, kept to wait for its message (True: consumed)."""
        parted = _PARTED_TYPE.match(line.message)
        if parted is None:
            return False
        key = line.stream_key
        if key in self._pending:
            self._flush(key, sink)
        self._pending[key] = (lineno, line, parted["type"])
        return True

    def close_all(self, sink: Sink) -> None:
        """End of file: a parted type whose message never came is read as its own line."""
        for key in list(self._pending):
            self._flush(key, sink)

    def _flush(self, key: str, sink: Sink) -> None:
        lineno, line, _ = self._pending.pop(key)
        sink.emit(lineno, line, EventKind.ERROR)
