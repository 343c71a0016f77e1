"""Lines that state the source rank of a broadcast, keyed by the words in front of it."""

from __future__ import annotations

from analyzers.formats.source_said import source_statements


def test_a_broadcast_source_is_kept_under_the_words_before_it() -> None:
    low = b"2026-12-06 21:43:10,001 [rank3] info broadcast prompt ids from src rank 3\n"
    assert source_statements(low) == [["broadcast prompt ids from", "3"]]


def test_other_spellings_of_the_source() -> None:
    assert source_statements(b"bcast weights src=0\n") == [["bcast weights", "0"]]
    assert source_statements(b"broadcasting the config from source rank 2\n") == [
        ["broadcasting the config from", "2"]
    ]


def test_a_source_rank_outside_a_broadcast_is_not_kept() -> None:
    assert source_statements(b"recv activations from src rank 1\n") == []
    assert source_statements(b"data source 3 of 8 opened\n") == []
