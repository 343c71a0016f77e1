"""rich's logging handler: time column (blank while the second repeats), padded level, and
the record's `file.py:line` column at the right, which is not part of the message."""

from datetime import datetime

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.formats.lines import parse_line
from analyzers.formats.richlog import NAME

STAMPED = "[12/04/26 15:45:12] INFO     [rank1] init process group: backend=gloo rank=1             infer.py:84"
BLANK_TIME = "                    INFO     [rank1]   norm passed                                       infer.py:84"
ERROR = "                    ERROR    model run failed: [enforce fail at alloc_cpu.cpp:127] err   infer.py:85"
SUCCESS = "[12/04/26 15:45:20] INFO     [rank5] model run success                                   infer.py:84"
WRAPPED = "                             world_size=4 master=localhost:38455 attempt=0                          "


@pytest.mark.parametrize(
    ("line", "level", "message"),
    [
        (STAMPED, "INFO", "[rank1] init process group: backend=gloo rank=1"),
        (BLANK_TIME, "INFO", "[rank1]   norm passed"),
        (ERROR, "ERROR", "model run failed: [enforce fail at alloc_cpu.cpp:127] err"),
        (SUCCESS, "INFO", "[rank5] model run success"),
    ],
)
def test_rich_records_lose_their_columns(line, level, message):
    parsed = parse_line(line)
    assert (parsed.source, parsed.level, parsed.message) == (NAME, level, message)


def test_the_time_column_reads_month_day_two_digit_year():
    assert parse_line(STAMPED).time == datetime(2026, 12, 4, 15, 45, 12)
    assert parse_line(BLANK_TIME).time is None


def test_a_wrapped_continuation_is_a_plain_line():
    assert parse_line(WRAPPED).source is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [(BLANK_TIME, "norm passed"), (SUCCESS, "model run success"), (STAMPED, None)],
)
def test_rich_checkpoints_are_read_without_the_path_column(line, expected):
    assert CheckpointMatcher().match(parse_line(line).message) == expected


def test_a_message_that_only_ends_in_a_file_name_keeps_it_elsewhere():
    line = "2026-12-04 15:45:12,001 [rank1] ERROR could not open infer.py:84"
    assert parse_line(line).message.endswith("infer.py:84")


# a job that indents its sub-module checkpoints itself (`log.info("  attention passed")`)
INDENTED = [
    (
        "[12/05/26 09:12:40] INFO       norm passed                                  decoder.py:146",
        "norm passed",
    ),
    (
        "                    INFO       attention passed                             decoder.py:155",
        "attention passed",
    ),
    (
        "                    INFO     layer 1 passed                                 decoder.py:192",
        "layer 1 passed",
    ),
    (
        "                    WARNING    MoE passed                                   decoder.py:167",
        "MoE passed",
    ),
]


@pytest.mark.parametrize(("line", "expected"), INDENTED)
def test_a_message_indented_by_the_job_keeps_its_level_column(line, expected):
    parsed = parse_line(line)
    assert parsed.source == NAME
    assert CheckpointMatcher().match(parsed.message) == expected
