"""Rows that rich's logging handler wrapped a long message onto, read back as one message.

The rows are a rank's log as rich writes it at 100 columns (`[%X]` times, so the message
column is 20), with paths and values of our own; offsets are into the block as the scanner
hands it over.
"""

from __future__ import annotations

from analyzers.formats.rich_rows import holds_rich_levels, rich_rows, wrapped_rich_row

WIDTH = 100
PAD = " " * 20


def row(left: str, path: str = "") -> str:
    return left + " " * (WIDTH - len(left) - len(path)) + path


BLOCK = (
    "\n".join(
        [
            row("[03:11:52] INFO     [rank4] layer 3 passed", "train.py:61"),
            row(
                "           ERROR    [rank4] model run failed: [enforce fail at alloc_cpu.cpp:127]",
                "train.py:70",
            ),
            row(PAD + "err == 0. DefaultCPUAllocator: can't allocate memory: you tried to"),
            row(PAD + "allocate 912345678901 bytes. Error code 12 (Cannot allocate memory)"),
            row(PAD + "Traceback (most recent call last):"),
        ]
    )
    + "\n"
).encode()
MESSAGE = (
    b"           ERROR    [rank4] model run failed: [enforce fail at alloc_cpu.cpp:127] "
    b"err == 0. DefaultCPUAllocator: can't allocate memory: you tried to "
    b"allocate 912345678901 bytes. Error code 12 (Cannot allocate memory)"
)


def lines(block: bytes) -> list[tuple[int, int]]:
    """(start, newline) of every line of the block."""
    found, pos = [], 0
    while pos < len(block):
        end = block.find(b"\n", pos)
        found.append((pos, end))
        pos = end + 1
    return found


def test_a_record_and_the_rows_it_wrapped_onto_read_as_one_message() -> None:
    rows = lines(BLOCK)
    start, end = rows[1]
    first, last, starts, text = rich_rows(BLOCK, start, end, 64)
    assert (first, last) == (rows[1][0], rows[3][1])
    assert starts == [rows[1][0], rows[2][0], rows[3][0]]
    assert text == MESSAGE


def test_a_wrapped_row_finds_the_record_that_opened_its_message() -> None:
    rows = lines(BLOCK)
    joined = rich_rows(BLOCK, *rows[3], 64)
    assert joined is not None
    assert joined[0] == rows[1][0]
    assert joined[3] == MESSAGE


def test_the_rows_joined_stop_at_the_bound() -> None:
    rows = lines(BLOCK)
    joined = rich_rows(BLOCK, *rows[1], 2)
    assert joined is not None
    assert joined[2] == [rows[1][0], rows[2][0]]


def test_a_record_nothing_wrapped_and_a_traceback_row_are_not_joined() -> None:
    rows = lines(BLOCK)
    assert rich_rows(BLOCK, *rows[0], 64) is None
    assert rich_rows(BLOCK, *rows[4], 64) is None


def test_the_byte_tests_tell_a_wrapped_row_from_a_record() -> None:
    rows = BLOCK.split(b"\n")
    assert [wrapped_rich_row(r) for r in rows[:5]] == [False, False, True, True, True]
    assert holds_rich_levels(BLOCK)
    assert not holds_rich_levels(b"2026-05-11 08:40:01,112 - INFO - step 3 loss 2.310\n")


CONSOLE_PAD = " " * 11


def test_a_console_log_record_and_its_rows_read_as_one_message() -> None:
    """rich's `Console.log`: no level column, the message at column 11, the caller's source
    only on the record's first row."""
    console = (
        "\n".join(
            [
                row("[17:45:37] rank 0 model run failed:", "infer.py:330"),
                row(
                    CONSOLE_PAD
                    + "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553]"
                ),
                row(
                    CONSOLE_PAD
                    + "Connection closed by peer [127.0.0.1]:43190. This is typically caused by a"
                ),
            ]
        )
        + "\n"
    ).encode()
    rows = lines(console)
    assert holds_rich_levels(console)
    joined = rich_rows(console, *rows[2], 64)
    assert joined is not None
    assert joined[2] == [start for start, _ in rows]
    assert joined[3] == (
        b"[17:45:37] rank 0 model run failed: "
        b"[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
        b"Connection closed by peer [127.0.0.1]:43190. This is typically caused by a"
    )
