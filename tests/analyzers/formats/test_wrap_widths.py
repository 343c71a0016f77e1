"""The widths of the lines around a line, measured once per bucket of a block.

A bucket is the lines starting in `SPAN` bytes of a block: ASCII is measured a byte a column,
other text in display columns, a Chinese line a column short before a wide character read as
cut at the window. The lines are shaped like a torch_npu job's log with paths of our own.
"""

from __future__ import annotations

from analyzers.formats.wrap_widths import NO_LINES, SPAN, fills, read_bucket

INFO = b"2026-05-11 08:40:01,112 - INFO - step %d loss 2.310 throughput 812.4 samples/s\n"
CHINESE = "[ERROR] 2026-05-11-08:42:17 (PID:3041, Device:2, RankID:2) 数据集加载失败，请检"
REST = "查路径 /data/sft/train.jsonl 是否存在"


def test_an_ascii_bucket_counts_a_column_a_byte() -> None:
    block = b"".join(INFO % n for n in range(3))
    bucket = read_bucket(block, 0)
    assert bucket.first == 0
    assert bucket.lengths == [len(INFO % n) - 1 for n in range(3)]
    assert bucket.widths is bucket.lengths
    assert bucket.gaps == frozenset()


def test_a_later_bucket_starts_at_its_first_whole_line() -> None:
    block = b"".join(INFO % n for n in range(400))
    bucket = read_bucket(block, SPAN)
    assert block[bucket.first - 1 : bucket.first] == b"\n"
    assert bucket.first >= SPAN
    assert block[bucket.first :].startswith(b"2026-05-11 08:40:01,112 - INFO - step ")


def test_a_chinese_line_is_measured_in_display_columns() -> None:
    block = (CHINESE + "\n" + REST + "\n").encode()
    bucket = read_bucket(block, 0)
    assert bucket.lengths == [len(CHINESE.encode()), len(REST.encode())]
    assert bucket.widths == [79, 37]
    assert bucket.gaps == frozenset({0})  # the next line opens with a wide character
    assert bucket.fitted(80) == [80, 37]
    assert bucket.fitted(90) == [79, 37]


def test_colour_codes_take_no_column() -> None:
    block = b"\x1b[1;31m[ERROR] device 2 lost\x1b[0m\n"
    assert read_bucket(block, 0).widths == [len(b"[ERROR] device 2 lost")]


def test_offsets_are_where_the_lines_of_the_window_start_and_end() -> None:
    block = b"short line\n" + b"x" * 80 + b"\nshort\n" + b"y" * 80 + b"\n"
    bucket = read_bucket(block, 0)
    assert bucket.offsets(bucket.widths, 80) == [(11, 91), (98, 178)]
    assert NO_LINES.offsets(NO_LINES.widths, 80) == []


def test_fills_a_window_or_a_column_short_before_a_wide_character() -> None:
    assert fills(79, CHINESE.encode(), b"")
    assert fills(80, CHINESE.encode(), REST.encode())
    assert not fills(80, CHINESE.encode(), b"/data/sft/train.jsonl")
