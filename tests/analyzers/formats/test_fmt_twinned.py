"""Two ranks sharing one stdout that print the same exception at once: the type, the `: ` and
the message come in turns, and the line is put back together (shapes of two- and four-GPU
trainer consoles, wording of our own)."""

import pytest

from analyzers.formats.twinned import split_twinned


@pytest.mark.parametrize(
    ("raw", "pieces"),
    [
        (
            b"AttributeErrorAttributeError: : 'Wrapper' object has no attribute 'head'"
            b"'Wrapper' object has no attribute 'head'",
            [
                b"AttributeError: 'Wrapper' object has no attribute 'head'",
                b"AttributeError: 'Wrapper' object has no attribute 'head'",
            ],
        ),
        (
            b"KeyErrorKeyError: : 'unet''unet'",
            [b"KeyError: 'unet'", b"KeyError: 'unet'"],
        ),
        # two messages that differ: one line, the rest kept whole behind one type
        (
            b"torch.OutOfMemoryErrortorch.OutOfMemoryError: : CUDA out of memory. GPU 0CUDA out of"
            b" memory. GPU 1",
            [b"torch.OutOfMemoryError: CUDA out of memory. GPU 0CUDA out of memory. GPU 1"],
        ),
        # a collector's prefix stays in front of each line
        (
            b"2026-01-05T10:11:12.000Z ValueErrorValueError: : bad size 3bad size 3",
            [
                b"2026-01-05T10:11:12.000Z ValueError: bad size 3",
                b"2026-01-05T10:11:12.000Z ValueError: bad size 3",
            ],
        ),
    ],
)
def test_an_exception_two_ranks_printed_at_once_comes_apart(
    raw: bytes, pieces: list[bytes]
) -> None:
    assert split_twinned(raw) == pieces


@pytest.mark.parametrize(
    "raw",
    [
        # a type written once, with an empty-looking message
        b"RuntimeError: : nothing to report",
        # a name repeated inside a message is no twinned type
        b"ValueError: expected ValueErrorValueError: : in the fixture",
        b'  File "/srv/train.py", line 12, in main',
    ],
)
def test_lines_that_are_not_twinned_stay_whole(raw: bytes) -> None:
    assert split_twinned(raw) == [raw]
