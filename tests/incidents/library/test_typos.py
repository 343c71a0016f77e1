"""Typo tolerance: edit distance and vocabulary corrections, on either database."""

from __future__ import annotations

from collections import Counter

import pytest

from incidents.library import typos


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("timeout", "timeout", 0),
        ("timout", "timeout", 1),
        ("memroy", "memory", 1),
        ("dispach", "dispatch", 1),
        ("fragmetnaton", "fragmentation", 2),
        ("abcd", "wxyz", 3),  # more than the limit: limit + 1
    ],
)
def test_edit_distance_counts_a_swap_as_one_edit(a, b, distance):
    assert typos.edit_distance(a, b, limit=2) == distance


@pytest.mark.django_db
def test_corrections_pick_the_nearest_vocabulary_word():
    typos.add_words(Counter({"timeout": 5, "timer": 1, "fragmentation": 2, "memory": 3}))

    found = typos.corrections(["timout", "memroy", "fragmentaton", "timeout"])

    assert found == {"timout": "timeout", "memroy": "memory", "fragmentaton": "fragmentation"}


@pytest.mark.django_db
def test_words_too_far_from_the_vocabulary_are_left_alone():
    typos.add_words(Counter({"timeout": 1}))

    assert typos.corrections(["tmieuot", "bandwidth"]) == {}


@pytest.mark.django_db
def test_ties_go_to_the_commoner_word():
    typos.add_words(Counter({"stream": 9, "strean": 1, "streak": 2}))

    assert typos.corrections(["streaw"]) == {"streaw": "stream"}


@pytest.mark.django_db
def test_a_pasted_line_of_unknown_words_costs_a_few_queries(django_assert_max_num_queries):
    typos.add_words(Counter({"timeout": 5, "memory": 3}))
    pasted = [f"host{n:03d}node" for n in range(60)] + ["timout", "memroy"]

    with django_assert_max_num_queries(8):
        found = typos.corrections(pasted)

    assert found == {"timout": "timeout", "memroy": "memory"}
