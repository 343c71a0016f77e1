"""What every format module shares: a line's level in one spelling, and the line a file ends on."""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine, last_with_text, normal_level, peel_writer


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


def test_a_writer_prefix_joins_the_writer_key_and_leaves_the_message() -> None:
    compose = regex_programs.compile(r"[\w.-]+-\d+\s+\|\s")
    line = ParsedLine(text="trainer-1  | step 3 done", message="trainer-1  | step 3 done")
    assert peel_writer(line, line.message, compose)
    assert (line.stream_key, line.message) == ("trainer-1  |", "step 3 done")


def test_a_line_without_the_prefix_is_left_as_it_is() -> None:
    compose = regex_programs.compile(r"[\w.-]+-\d+\s+\|\s")
    line = ParsedLine(text="step 3 done", message="step 3 done")
    assert not peel_writer(line, line.message, compose)
    assert (line.stream_key, line.message) == ("", "step 3 done")
