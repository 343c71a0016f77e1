"""Hints come from a file's head: sizes and ranks stated there, nothing read past it."""

from __future__ import annotations

from analyzers.formats.hints import HINT_BYTES, HeadHints

INIT = (
    b"2026-11-29 07:25:36,861 [rank3] INFO init process group: backend=hccl rank=3 world_size=16\n"
)
CHATTER = b"2026-11-29 07:25:37,002 [rank3] INFO layer 0 passed\n"


def test_a_size_stated_in_the_first_lines_is_read():
    hints = HeadHints(year_from_name=None)
    hints.read_head(INIT + CHATTER * 10)
    assert hints.world_sizes == [16]
    assert hints.year == 2026


def test_the_head_window_spans_blocks_until_it_is_used_up():
    hints = HeadHints(year_from_name=None)
    first = CHATTER * (HINT_BYTES // len(CHATTER) // 2)
    hints.read_head(first)
    hints.read_head(INIT)  # still inside the first HINT_BYTES of the file
    assert hints.world_sizes == [16]


def test_nothing_past_the_head_window_is_read():
    hints = HeadHints(year_from_name=None)
    hints.read_head(CHATTER * (HINT_BYTES // len(CHATTER) + 10) + INIT)
    hints.read_head(INIT)
    assert hints.world_sizes == []


def test_a_line_across_the_window_edge_is_not_read_in_half():
    hints = HeadHints(year_from_name=None)
    padding = b"x" * (HINT_BYTES - len(INIT) // 2 - 1) + b"\n"
    hints.read_head(padding + INIT.replace(b"world_size=16", b"world_size=1600"))
    assert hints.world_sizes == []
