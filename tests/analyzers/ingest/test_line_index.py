"""A block's line index: every reader's line numbers from one count of the block."""

import pytest

from analyzers.ingest.line_index import SHORT_RANGE, STEP, LineIndex, count_line_ends

# lines of uneven lengths over several index steps, some empty
BLOCK = b"".join(b"x" * (n * 37 % 301) + b"\n" for n in range(1200))


class _Counted(bytes):
    """A block that adds up the bytes `bytes.count` reads in it, or copies out to count."""

    read = 0

    def count(self, sub, start=0, end=None):  # type: ignore[override]
        end = len(self) if end is None else min(end, len(self))
        _Counted.read += max(end - start, 0)
        return super().count(sub, start, end)

    def __getitem__(self, key):  # type: ignore[override]
        piece = super().__getitem__(key)
        _Counted.read += len(piece) if isinstance(key, slice) else 0
        return piece


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


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (0, None),
        (0, 0),
        (3, 50),
        (0, SHORT_RANGE - 1),
        (0, SHORT_RANGE),
        (17, STEP + 5),
        (STEP, len(BLOCK) + 99),
        (len(BLOCK) - 1, None),
    ],
)
def test_counting_line_ends_answers_as_bytes_count(start, end):
    assert count_line_ends(BLOCK, start, end) == BLOCK.count(b"\n", start, end)


def test_a_block_of_blank_lines_or_of_none_is_counted_alike():
    assert count_line_ends(b"\n" * 5000) == 5000
    assert count_line_ends(b"x" * 5000) == 0
    assert count_line_ends(b"x" * 5000 + b"\n", 2000) == 1
