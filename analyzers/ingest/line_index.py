"""Line numbers of offsets in one block of whole lines, counted once for all who ask.

Several readers of a ~1 MiB block need line numbers: the block's line count, the halving
search for lines of another shape (`formats.blockfilter.odd_ranges`), the walk over the
candidate lines. `bytes.count(b"\\n")` reads its bytes one by one (about five instructions a
byte, no `memchr`), so each reader counting from the block's start for itself made the
newline counts a tenth of a big job's analysis. The index counts the block once, in
`STEP`-byte pieces and only as far as it is asked; an offset's line number is then the count
at the nearest piece boundary plus at most `STEP // 2` bytes counted.
"""

from __future__ import annotations

STEP = 16 * 1024


class LineIndex:
    """`line_at(offset)`: the number of the line holding that offset; `lines`: the block's
    line count (its line ends). Offsets past the block count as its end."""

    __slots__ = ("_block", "_first", "_marks", "_size")

    def __init__(self, block: bytes, first_line: int = 1) -> None:
        self._block = block
        self._first = first_line
        self._size = len(block)
        self._marks = [0]  # line ends before each multiple of STEP, counted so far

    @property
    def lines(self) -> int:
        return self._before(self._size)

    def line_at(self, offset: int) -> int:
        return self._first + self._before(offset)

    def newlines(self, start: int, end: int) -> int:
        """Line ends in [start, end): a short range is counted directly."""
        if end - start <= STEP:
            return self._block.count(b"\n", start, end)
        return self._before(end) - self._before(start)

    def _before(self, offset: int) -> int:
        """Line ends in [0, offset), counted from the nearer piece boundary."""
        offset = min(max(offset, 0), self._size)
        step, rest = divmod(offset, STEP)
        after = (step + 1) * STEP
        if rest > STEP // 2 and after <= self._size:
            return self._mark(step + 1) - self._block.count(b"\n", offset, after)
        return self._mark(step) + self._block.count(b"\n", offset - rest, offset)

    def _mark(self, step: int) -> int:
        marks, count = self._marks, self._block.count
        while len(marks) <= step:
            start = (len(marks) - 1) * STEP
            marks.append(marks[-1] + count(b"\n", start, start + STEP))
        return marks[step]
