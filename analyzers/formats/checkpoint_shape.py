"""Parse a file's checkpoint lines without the full header search, once their shape is known.

Checkpoint lines of one file come from a few print or logging calls, so they share a few
prefix shapes: `2026-11-29 07:24:28,507 [rank2] INFO ` differs from line to line only in
the digits of its time (sub-module lines may add an indent, a second shape). A full
`parse_line` tries every known header and wrapper (~70 us); after it has parsed one line
of a shape, lines whose prefix is the same but for the timestamp's digits reuse its fields
(rank, pid, level...) and only re-read the time. The first few reuses of each shape are
checked against a full parse; one disagreement turns the shortcut off for the file, so it
can only save time, never change a result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from analyzers.formats.base import ParsedLine
from analyzers.formats.lines import parse_line
from analyzers.formats.timestamps import parse_time, time_span

_DIGITS = str.maketrans("0123456789", "0000000000")
CHECKS = 8  # reuses of a shape verified against a full parse before it is trusted
MAX_SHAPES = 4


@dataclass(slots=True)
class _Shape:
    width: int
    time_at: tuple[int, int]
    masked: str
    template: ParsedLine
    checks_left: int = CHECKS
    iso_time: bool = False  # the time reads with `datetime.fromisoformat` (C, ~10x faster)

    def mask(self, prefix: str) -> str:
        """Only the timestamp's digits may differ: rank and pid digits must match exactly."""
        start, end = self.time_at
        return prefix[:start] + prefix[start:end].translate(_DIGITS) + prefix[end:]

    def fits(self, text: str) -> bool:
        return self.mask(text[: self.width]) == self.masked

    def reuse(self, text: str) -> ParsedLine:
        start, end = self.time_at
        time = self._time(text[start:end]) if self.template.time is not None else None
        t = self.template  # a constructor call: `dataclasses.replace` costs 3x more
        return ParsedLine(
            text=text,
            message=text[self.width :],
            source=t.source,
            level=t.level,
            rank=t.rank,
            local_rank=t.local_rank,
            pid=t.pid,
            time=time,
            stream_key=t.stream_key,
            tags=t.tags,
        )

    def _time(self, stamp: str) -> object:
        if self.iso_time:
            try:
                return datetime.fromisoformat(stamp)
            except ValueError:
                pass
        return parse_time(stamp)


class CheckpointShape:
    def __init__(self) -> None:
        self._shapes: list[_Shape] = []
        self._off = False

    def parse(self, text: str) -> ParsedLine:
        shape = None if self._off else next((s for s in self._shapes if s.fits(text)), None)
        if shape is None:
            return self._learn(text)
        quick = shape.reuse(text)
        if shape.checks_left:
            shape.checks_left -= 1
            full = parse_line(text)
            if not _same(quick, full):
                self._off = True
                return full
        return quick

    def _learn(self, text: str) -> ParsedLine:
        line = parse_line(text)
        if self._off or len(self._shapes) >= MAX_SHAPES:
            return line
        if line.message and text.endswith(line.message):
            width = len(text) - len(line.message)
            prefix = text[:width]
            time_at = time_span(prefix) or (0, 0)
            shape = _Shape(width, time_at, "", replace(line, tags=dict(line.tags)))
            shape.masked = shape.mask(prefix)
            shape.iso_time = _reads_as_iso(prefix[time_at[0] : time_at[1]], line.time)
            self._shapes.append(shape)
        return line


def _reads_as_iso(stamp: str, expected: object) -> bool:
    """Whether the C parser gives what `parse_time` gave (no zone, same fraction)."""
    try:
        return expected is not None and datetime.fromisoformat(stamp) == expected
    except ValueError:
        return False


def _same(quick: ParsedLine, full: ParsedLine) -> bool:
    fields = ("message", "source", "level", "rank", "local_rank", "pid", "time", "stream_key")
    return all(getattr(quick, name) == getattr(full, name) for name in fields)
