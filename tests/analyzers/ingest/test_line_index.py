"""A block's line index: every reader's line numbers from one count of the block."""

import pytest

from analyzers.ingest.line_index import STEP, LineIndex

# lines of uneven lengths over several index steps, some empty
BLOCK = b"".join(b"x" * (n * 37 % 301) + b"\n" for n in range(1200))


class _Counted(bytes):
    """A block that adds up the bytes `bytes.count` reads in it."""

    read = 0

    def count(self, sub, start=0, end=None):  # type: ignore[override]
        end = len(self) if end is None else min(end, len(self))
        _Counted.read += max(end - start, 0)
        return super().count(sub, start, end)


@pytest.mark.parametrize(
    "offset", [0, 1, STEP - 1, STEP, STEP + 1, STEP * 3 // 2, len(BLOCK) - 1, len(BLOCK)]
)
def test_an_offsets_line_is_the_line_ends_before_it_plus_the_first_line(offset):
    assert LineIndex(BLOCK, 40).line_at(offset) == 40 + BLOCK.count(b"\n", 0, offset)


def test_the_line_count_is_the_blocks_line_ends():
    assert LineIndex(BLOCK).lines == BLOCK.count(b"\n") == 1200
    assert LineIndex(b"").lines == 0
    assert LineIndex(b"one\n").line_at(99) == 2  # past the end: the block's end


@pytest.mark.parametrize(
    ("start", "end"), [(0, 0), (5, 90), (100, 3 * STEP + 7), (STEP, 2 * STEP), (0, len(BLOCK))]
)
def test_line_ends_between_two_offsets(start, end):
    assert LineIndex(BLOCK).newlines(start, end) == BLOCK.count(b"\n", start, end)


def test_many_questions_read_the_block_about_once():
    block = _Counted(BLOCK)
    index = LineIndex(block)
    _Counted.read = 0
    offsets = range(0, len(BLOCK), len(BLOCK) // 50)
    assert [index.line_at(at) for at in offsets] == [
        1 + BLOCK.count(b"\n", 0, at) for at in offsets
    ]
    assert _Counted.read <= len(BLOCK) + len(offsets) * STEP // 2
