"""rich's logging handler: time column (blank while the second repeats), padded level, and
the record's `file.py:line` column at the right, which is not part of the message."""

from datetime import datetime

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.formats.lines import parse_line
from analyzers.formats.richlog import NAME
from tests.analyzers.job_bundles import pack

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


# rich's own logging example sets `datefmt="[%X]"`: the time alone, and under a repeated second
# a blank column 11 characters wide
TIME_ONLY = "[18:45:53] INFO     [rank0] load weights passed                                                      infer.py:52"
TIME_ONLY_BLANK = "           INFO     [rank0]   norm passed                                                            infer.py:52"
TIME_ONLY_WRAPPED = "                    master=127.0.0.1:58955 timeout=120s                                                       "
TIME_ONLY_WARNING = "           WARNING  [rank1]   MoE passed                                                             infer.py:52"


@pytest.mark.parametrize(
    ("line", "level", "message", "checkpoint"),
    [
        (TIME_ONLY, "INFO", "[rank0] load weights passed", "load weights passed"),
        (TIME_ONLY_BLANK, "INFO", "[rank0]   norm passed", "norm passed"),
        (TIME_ONLY_WARNING, "WARNING", "[rank1]   MoE passed", "MoE passed"),
    ],
)
def test_other_time_columns_are_read_as_rich_records(line, level, message, checkpoint):
    parsed = parse_line(line)
    assert (parsed.source, parsed.level, parsed.message) == (NAME, level, message)
    assert CheckpointMatcher().match(parsed.message) == checkpoint


def test_the_time_alone_gives_no_record_time():
    assert parse_line(TIME_ONLY).time is None


def test_a_wrapped_line_under_the_time_alone_stays_plain():
    assert parse_line(TIME_ONLY_WRAPPED).source is None


def _rich_log(rank: int, parts: list[str]) -> str:
    """One rank's file as RichHandler(log_time_format="[%X]") writes it at 110 columns."""
    lines = []
    for index, message in enumerate(["load weights passed", "prefill start: 8 tokens", *parts]):
        stamp = "[18:45:53] " if index == 0 else " " * 11
        text = f"{stamp}INFO     [rank{rank}] {message}"
        lines.append(text.ljust(110 - len("infer.py:52")) + "infer.py:52")
    return "\n".join(lines) + "\n"


def test_a_stuck_rank_is_found_in_time_only_rich_logs(tmp_path):
    """Rank 2 spins in layer 1's MoE while the others wait in the layer's all_reduce; the
    operator's timeout ends the job without an error line. Real run: mp.spawn, 4 ranks."""
    layer = ["  norm passed", "  attention passed", "  MoE passed"]
    done = [*layer, "layer 0 passed", *layer]
    files = {f"log_{rank}.log": _rich_log(rank, done) for rank in (0, 1, 3)}
    files["log_2.log"] = _rich_log(2, done[:-1])
    files["env.txt"] = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nBACKEND=gloo\n"
    report = analyze(
        pack(tmp_path / "job.tar.gz", files, "job-6d0e2b91"), AnalyzeOptions(workers=1)
    )
    ranks = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert ranks == {
        0: "layer 1 / MoE passed",
        1: "layer 1 / MoE passed",
        2: "layer 1 / attention passed",
        3: "layer 1 / MoE passed",
    }
    assert report.correlation["last_common_checkpoint_qualified"] == "layer 1 / attention passed"
    assert report.diagnosis.culprit_ranks == [2]


def test_a_line_of_blanks_keeps_its_text_and_a_column_after_blanks_goes() -> None:
    from analyzers.formats.richlog import drop_path_column

    assert drop_path_column("x" + " " * 8192) == "x" + " " * 8192
    assert drop_path_column("load passed" + " " * 8000 + "infer.py:197") == "load passed"
