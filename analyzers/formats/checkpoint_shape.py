"""Parse a file's checkpoint lines without the full header search, once their shape is known.

Checkpoint lines of one file come from one print or logging call, so they share a prefix
shape: `2026-11-29 07:24:28,507 [rank2] INFO ` differs from line to line only in digits.
A full `parse_line` tries every known header and wrapper (~70 us); after it has parsed one
checkpoint line, lines whose prefix is the same but for the digits of its timestamp reuse
its fields (rank, pid, level...) and only re-read the time. The first few reuses are checked against a full
parse; one disagreement turns the shortcut off for the file, so it can only save time,
never change a result.
"""

from __future__ import annotations

from dataclasses import replace

from analyzers.formats.base import ParsedLine
from analyzers.formats.lines import parse_line
from analyzers.formats.timestamps import parse_time, time_span

_DIGITS = str.maketrans("0123456789", "0000000000")
CHECKS = 8  # reuses verified against a full parse before the shortcut is trusted


class CheckpointShape:
    def __init__(self) -> None:
        self._template: ParsedLine | None = None
        self._width = 0
        self._masked = ""
        self._time_at = (0, 0)
        self._checks_left = CHECKS
        self._off = False

    def parse(self, text: str) -> ParsedLine:
        if self._off or self._template is None or not self._fits(text):
            return self._learn(text)
        quick = self._reuse(text)
        if self._checks_left:
            self._checks_left -= 1
            full = parse_line(text)
            if not _same(quick, full):
                self._off = True
                return full
        return quick

    def _fits(self, text: str) -> bool:
        return self._mask(text[: self._width]) == self._masked

    def _mask(self, prefix: str) -> str:
        """Only the timestamp's digits may differ: rank and pid digits must match exactly."""
        start, end = self._time_at
        return prefix[:start] + prefix[start:end].translate(_DIGITS) + prefix[end:]

    def _reuse(self, text: str) -> ParsedLine:
        assert self._template is not None
        prefix = text[: self._width]
        time = parse_time(prefix) if self._template.time is not None else None
        return replace(self._template, text=text, message=text[self._width :], time=time)

    def _learn(self, text: str) -> ParsedLine:
        line = parse_line(text)
        if not self._off and line.message and text.endswith(line.message):
            self._width = len(text) - len(line.message)
            self._time_at = time_span(text[: self._width]) or (0, 0)
            self._masked = self._mask(text[: self._width])
            self._template = replace(line, tags=dict(line.tags))
            self._checks_left = CHECKS
        return line


def _same(quick: ParsedLine, full: ParsedLine) -> bool:
    fields = ("message", "source", "level", "rank", "local_rank", "pid", "time", "stream_key")
    return all(getattr(quick, name) == getattr(full, name) for name in fields)
