"""Line numbers of offsets in one block of whole lines, counted once for all who ask.

Several readers of a ~1 MiB block need line numbers: the block's line count, the halving
search for lines of another shape (`formats.blockfilter.odd_ranges`), the walk over the
candidate lines. `bytes.count(b"\\n")` reads its bytes one by one (about five instructions a
byte, no `memchr`), so each reader counting from the block's start for itself made the
newline counts a tenth of a big job's analysis. The index counts the block once, in
`STEP`-byte pieces and only as far as it is asked; an offset's line number is then the count
at the nearest piece boundary plus at most `STEP // 2` bytes counted.

Every count of more than a few lines goes through `count_line_ends`, which finds the line
ends with `memchr` instead (`bytes.replace` deleting them): two to eight times faster on
log lines, the same number.
"""

from __future__ import annotations

STEP = 16 * 1024
# Below this many bytes `bytes.count` is faster than copying the range to delete its line ends.
SHORT_RANGE = 1024


def count_line_ends(data: bytes, start: int = 0, end: int | None = None) -> int:
    """`data.count(b"\\n", start, end)`. `bytes.count` of one byte compares every byte in
    a loop; `bytes.replace` deleting that byte jumps between its occurrences with `memchr`
    and copies what lies between them, so over a log's lines of tens of bytes or more the
    length it removes is found several times faster (a range of a few lines is counted)."""
    size = len(data) if end is None else end
    if size - start < SHORT_RANGE:
        return data.count(b"\n", start, end)
    piece = data[start:end] if start or end is not None else data
    return len(piece) - len(piece.replace(b"\n", b""))


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
            return count_line_ends(self._block, start, end)
        return self._before(end) - self._before(start)

    def _before(self, offset: int) -> int:
        """Line ends in [0, offset), counted from the nearer piece boundary."""
        offset = min(max(offset, 0), self._size)
        step, rest = divmod(offset, STEP)
        after = (step + 1) * STEP
        if rest > STEP // 2 and after <= self._size:
            return self._mark(step + 1) - count_line_ends(self._block, offset, after)
        return self._mark(step) + count_line_ends(self._block, offset - rest, offset)

    def _mark(self, step: int) -> int:
        marks, block = self._marks, self._block
        while len(marks) <= step:
            start = (len(marks) - 1) * STEP
            marks.append(marks[-1] + count_line_ends(block, start, start + STEP))
        return marks[step]
