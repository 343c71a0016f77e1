"""Rank lists as launchers and collective errors write them."""

from __future__ import annotations

from analyzers.core.rank_lists import ranks_named


def test_ranges_and_single_ranks_expand_in_the_order_written():
    assert ranks_named("8-10,13") == (8, 9, 10, 13)
    assert ranks_named("[3, 5]") == (3, 5)
    assert ranks_named("2 - 4") == (2, 3, 4)


def test_a_rank_named_twice_is_listed_once():
    assert ranks_named("1,0-2,1") == (1, 0, 2)


def test_a_range_no_job_could_have_keeps_only_its_first_number():
    assert ranks_named("3-900000") == (3,)
    assert ranks_named("7-2,4") == (7, 4)


def test_nothing_named_is_an_empty_list():
    assert ranks_named(None) == ()
    assert ranks_named("all") == ()
