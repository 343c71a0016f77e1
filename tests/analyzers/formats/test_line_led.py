"""A pattern that matches only at a line's start is searched from line end to line end, and
finds the same matches' starts as the pattern itself."""

from __future__ import annotations

import re

import pytest

from analyzers.formats.blockfilter import FOLD, BlockFilter
from analyzers.formats.line_led import LINE_START, LineLed, line_led
from analyzers.formats.severity import load_prefilter

# the rank banner a job prints between its ranks' outputs, as the prefilter reads it
BANNER = re.compile(LINE_START + rb"[ \t]*[=#*~>-]{2,}[ \t]*rank[ _=#-]?0+[ \t]*[=#*~<-]*(?![^\n])")
LOW = (
    b"==== rank 0 ====\n"
    b"[default0]: ==== rank 0 ==== quoted inside a line\n"
    b"  --- rank0 ---\n"
    b"\n"
    b"x ==== rank 0 ====\n"
    b"==== rank 0 ====\n"
).translate(FOLD)


def _starts(pattern, data: bytes, pos: int = 0) -> list[int]:
    found, starts = pattern.search(data, pos), []
    while found is not None:
        starts.append(found.start())
        found = pattern.search(data, found.start() + 1)
    return starts


def test_a_banner_is_found_at_each_line_start_it_leads():
    assert _starts(line_led(BANNER), LOW) == [0, 67, 103]


@pytest.mark.parametrize("pos", range(len(LOW) + 1))
def test_a_search_from_anywhere_finds_what_the_pattern_finds(pos):
    assert _starts(line_led(BANNER), LOW, pos) == _starts(BANNER, LOW, pos)


def test_a_pattern_led_by_something_else_is_kept_as_it_is():
    pattern = re.compile(rb"sig(?:nal|kill)")
    assert line_led(pattern) is pattern


def test_the_block_filter_searches_the_prefilters_line_patterns_line_by_line():
    line_patterns = [p for p in load_prefilter().patterns if p.pattern.startswith(LINE_START)]
    searched = BlockFilter.build(load_prefilter(), None).patterns
    assert line_patterns
    assert sum(isinstance(p, LineLed) for p in searched) == len(line_patterns)


def test_the_block_filter_finds_a_rank_banner_as_before():
    low = b"step 3 loss=2.1\n===== rank 0 =====\nstep 4 loss=2.0\n".translate(FOLD)
    assert 16 in BlockFilter.build(load_prefilter(), None).candidates(low)


def test_a_lookbehind_that_leads_only_one_branch_is_kept_as_it_is():
    pattern = re.compile(LINE_START + rb"rank 0|sigkill")
    assert line_led(pattern) is pattern
