"""What every format module shares: a line's level in one spelling, and the line a file ends on."""

from __future__ import annotations

from analyzers.formats.base import ParsedLine, last_with_text, normal_level


def tail_of(*messages: str) -> list[tuple[int, ParsedLine]]:
    return [(number, ParsedLine(text, text)) for number, text in enumerate(messages, start=40)]


def test_a_log_ends_on_its_last_line_with_text_blank_lines_after_it_skipped() -> None:
    tail = tail_of("step 7 done", "no more batches in shard, finishing", "", "   ")

    assert last_with_text(tail) == (41, tail[1][1])


def test_a_tail_of_blank_lines_ends_on_nothing() -> None:
    assert last_with_text(tail_of("", " ")) is None
    assert last_with_text([]) is None


def test_levels_are_read_in_one_spelling() -> None:
    assert [normal_level(raw) for raw in ("warn", "WARNING", "error", None)] == [
        "WARNING",
        "WARNING",
        "ERROR",
        None,
    ]
