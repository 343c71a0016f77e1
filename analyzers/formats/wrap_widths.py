"""The widths of the lines around a line, measured once per bucket of a block.

`formats.wrapped` finds a terminal's window as the widest width around a line; a
neighbourhood is three buckets of `SPAN` bytes, each measured once, lazily, with
`bytes.split`/`len` in C while the bytes are ASCII (a column each: most logs stay that fast).
Only a bucket holding other bytes is decoded to count its display columns (`formats.columns`),
and there a line a column short of the window before a wide character counts as cut at it::

    [ERROR] 2026-05-11-08:42:17 (PID:3041, Device:2, RankID:2) 数据集加载失败，请检
    查路径 /data/sft/train.jsonl 是否存在
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzers.formats.columns import columns, opens_wide
from analyzers.formats.wrap_seams import visible

SPAN = 8192  # bytes per neighbourhood bucket; a neighbourhood is three buckets
_PROBES = 8  # width-long lines tried per bucket when looking for a second cut


@dataclass(frozen=True, slots=True)
class Bucket:
    """The lines starting in one bucket: where the first starts, their lengths in bytes, their
    display widths (the same list when the bucket is ASCII) and which of them a wide character
    opens the next line of (`gaps`: a terminal may have left their last column empty)."""

    first: int
    lengths: list[int]
    widths: list[int]
    gaps: frozenset[int] = frozenset()

    def fitted(self, window: int) -> list[int]:
        """The widths, a line one column short of `window` before a wide character counted as
        `window`: the character did not fit in the last column, so the terminal cut there."""
        if not self.gaps:
            return self.widths
        gaps = self.gaps
        return [
            window if width == window - 1 and at in gaps else width
            for at, width in enumerate(self.widths)
        ]

    def offsets(self, widths: list[int], window: int) -> list[tuple[int, int]]:
        """Where up to `_PROBES` lines of `window` columns (by `widths`) start and end."""
        found: list[tuple[int, int]] = []
        at = -1
        while len(found) < _PROBES:
            try:
                at = widths.index(window, at + 1)
            except ValueError:
                break
            start = self.first + sum(self.lengths[:at]) + at
            found.append((start, start + self.lengths[at]))
        return found


NO_LINES = Bucket(0, [], [])


def read_bucket(block: bytes, low: int) -> Bucket:
    """The lines starting in the `SPAN` bytes of `block` from `low`, measured: ASCII without
    control sequences stays in C (a byte a column); only other bytes are decoded."""
    first = block.find(b"\n", low - 1) + 1 if low else 0
    high = low + SPAN
    stop = block.find(b"\n", high - 1) + 1 if high < len(block) else len(block)
    chunk = block[first:stop]
    lines = chunk.split(b"\n")[:-1]
    lengths = list(map(len, lines))
    if chunk.isascii() and b"\x1b" not in chunk:
        return Bucket(first, lengths, lengths)
    lines = [*map(visible, lines), visible(block[stop : stop + 16])[:4]]
    gaps = frozenset(at for at, after in enumerate(lines[1:]) if opens_wide(after))
    return Bucket(first, lengths, [*map(columns, lines[:-1])], gaps)


def fills(window: int, line: bytes, after: bytes) -> bool:
    """The line is `window` columns wide, or a column short before a wide character that did
    not fit in the last column."""
    width = columns(line)
    return width == window or (width + 1 == window and opens_wide(after))
