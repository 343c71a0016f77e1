"""Search a pattern that matches only at a line's start from line end to line end.

A prefilter pattern led by the line-start lookbehind (`(?<![^\\n])[ \\t]*rank[ _=#-]?0+...`,
a rank banner on a line of its own) has no literal for `re` to jump to, so `re` tries it at
every byte: two such patterns cost more over a block's lines of another shape than all the
other patterns together. Led by the line end before it instead, the same pattern starts with
a literal and `re` skips from line end to line end; the block's first line, which has no
line end before it, is tried at the search's start. Only a match's start is asked for
(`formats.blockfilter._search_all` keeps the line it is on), and it is the same either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from re import _parser  # type: ignore[attr-defined]

from analyzers.core import regex_programs

LINE_START = rb"(?<![^\n])"


@dataclass(frozen=True, slots=True)
class _Start:
    """Where a match starts: all a block search reads of it."""

    at: int

    def start(self) -> int:
        return self.at


class LineLed:
    """`pattern.search` for a pattern led by `LINE_START`, returning only the match's start."""

    __slots__ = ("_led", "_rest", "pattern")

    def __init__(self, pattern: re.Pattern[bytes]) -> None:
        self.pattern = pattern.pattern
        rest = pattern.pattern[len(LINE_START) :]
        self._rest = regex_programs.compile(rest, pattern.flags)
        self._led = regex_programs.compile(b"\n(?:" + rest + b")", pattern.flags)

    def search(self, data: bytes, pos: int = 0) -> _Start | None:
        """The first match at or after `pos`: at `pos` itself if a line starts there, else
        one line end after it (the lookbehind reads the bytes before `pos` alike)."""
        if (pos == 0 or data[pos - 1 : pos] == b"\n") and self._rest.match(data, pos):
            return _Start(pos)
        found = self._led.search(data, pos)
        return None if found is None else _Start(found.start() + 1)


def line_led(pattern: re.Pattern[bytes]) -> re.Pattern[bytes] | LineLed:
    """The pattern, searched line by line when it can match only at a line's start."""
    return LineLed(pattern) if _led_by_line_start(pattern.pattern) else pattern


def _led_by_line_start(source: bytes | str) -> bool:
    """Whether every match of the pattern starts at a line's start: it opens with the
    lookbehind, and that lookbehind is not only one branch's (`(?<![^\n])a|b`)."""
    if not isinstance(source, bytes) or not source.startswith(LINE_START):
        return False
    try:
        parsed = _parser.parse(source)
    except Exception:  # any parser trouble: search the pattern as it is
        return False
    return len(parsed) > 0 and str(parsed[0][0]) == "ASSERT_NOT"
