"""The literals a checkpoint pattern's matches start with, which the block filter looks for
instead of running the pattern over a whole block."""

from __future__ import annotations

import pytest

from analyzers.formats.regex_literals import MIN_LITERAL, literal_prefixes


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (rb"(?i:passed|succe(?:ss|eded))", [b"passed", b"succe"]),
        (rb"(?i:layer \d+ done)", [b"layer "]),
        (rb"step (?:\w)+ ok|epoch \d+", [b"step ", b"epoch "]),
        (rb"\d+ passed", None),
        (rb"ab|cd", None),
        (rb"(?s:.)", None),
    ],
)
def test_literal_prefixes_of_checkpoint_patterns(source, expected):
    assert literal_prefixes(source) == expected


def test_a_long_literal_run_stops_at_the_first_group_it_reaches():
    """Five literal bytes are enough to look for: the group after them is not unfolded."""
    assert literal_prefixes(rb"model (?:loaded|ready)") == [b"model "]


def test_a_short_run_before_a_group_takes_each_branch_of_it():
    assert literal_prefixes(rb"kv (?:sent|recv)") == [b"kv sent", b"kv recv"]


def test_a_branch_shorter_than_the_minimum_gives_no_literals():
    short = b"x" * (MIN_LITERAL - 1)
    assert literal_prefixes(b"norm passed|" + short) is None
    assert literal_prefixes(b"norm passed|" + short + b"x") == [b"norm passed", short + b"x"]


def test_a_pattern_the_parser_refuses_gives_no_literals():
    assert literal_prefixes(rb"layer (\d+ passed") is None
