"""What a log viewer or grep adds to each copied line (`formats.viewer_marks`): numbers that
change on every line name no writer; a file name and a table row's time cell are kept."""

from __future__ import annotations

import pytest

from analyzers.formats.base import ParsedLine
from analyzers.formats.viewer_marks import (
    peel_bracketed_line_number,
    peel_grep_file,
    peel_kernel_log_line,
    peel_line_number,
    peel_table_row,
    peel_viewer_line_number,
)

OWN = "[rank0]:[E407 10:14:52.803113 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught timeout"


def peeled(peel, text: str) -> ParsedLine | None:
    """The line after `peel`, or None when the peeler left it alone."""
    line = ParsedLine(text=text, message=text)
    return line if peel(line, text) else None


@pytest.mark.parametrize(
    ("prefix", "writer"),
    [
        (
            "/var/log/npu/plog/plog-30211_20260407101452.log:",
            "/var/log/npu/plog/plog-30211_20260407101452.log:",
        ),
        ("plog-30211_20260407101452.log:118:", "plog-30211_20260407101452.log:118:"),
        ("device-3_20260407.txt:", "device-3_20260407.txt:"),
    ],
    ids=["path", "with-line-number", "txt"],
)
def test_grep_over_files_names_the_file(prefix, writer):
    record = "[ERROR] RUNTIME(30211,python3):2026-04-07-10:14:52.803.113 [stream.cc:1034] fail"
    line = peeled(peel_grep_file, prefix + record)
    assert line is not None
    assert (line.stream_key, line.message) == (writer, record)


def test_a_file_name_before_words_is_no_grep_output():
    assert peeled(peel_grep_file, "train.log: resumed from step 400") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"118:{OWN}", OWN),
        (
            '4120:  File "/srv/job/train.py", line 40, in main',
            '  File "/srv/job/train.py", line 40, in main',
        ),
    ],
    ids=["tagged", "indented"],
)
def test_grep_n_line_numbers_go(text, message):
    line = peeled(peel_line_number, text)
    assert line is not None
    assert (line.message, line.stream_key) == (message, "")


def test_a_time_is_no_line_number():
    assert peeled(peel_line_number, "10:14:52 step 8 done") is None


def test_a_viewers_padded_gutter_number_goes():
    line = peeled(peel_viewer_line_number, f"  1145\t{OWN}")
    assert line is not None
    assert (line.message, line.stream_key) == (OWN, "")


def test_an_unpadded_number_and_tab_is_a_row_of_data():
    assert peeled(peel_viewer_line_number, "0\t1\t2") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [(f"704.7s\t1344\t{OWN}", OWN), ("12s\t7\t", "")],
    ids=["line", "blank-line"],
)
def test_a_notebooks_elapsed_time_and_line_number_go(text, message):
    line = peeled(peel_kernel_log_line, text)
    assert line is not None
    assert (line.message, line.stream_key) == (message, "")


def test_a_time_alone_before_a_tab_is_the_processes_own():
    assert peeled(peel_kernel_log_line, "0.5s\tloss 0.31") is None


def test_a_bracketed_line_number_before_torchs_rank_tag_goes():
    line = peeled(peel_bracketed_line_number, f"[80746] {OWN}")
    assert line is not None
    assert (line.message, line.stream_key) == (OWN, "")


@pytest.mark.parametrize("text", ["[3] NCCL INFO Bootstrap : Using eth0", "[12345] [INFO] ready"])
def test_a_bracketed_number_before_anything_else_stays(text):
    assert peeled(peel_bracketed_line_number, text) is None


def test_a_viewers_table_row_gives_the_record_and_its_time():
    line = peeled(peel_table_row, f"  |   | 2026-04-07 10:14:52.803 | {OWN} |")
    assert line is not None
    assert line.message == OWN
    assert line.tags["collector_time"] == "2026-04-07 10:14:52.803"


@pytest.mark.parametrize(
    "text",
    [
        # loguru: time, level and record, with no closing bar
        "2026-04-07 10:14:52.803 | ERROR    | worker:run:88 - NPU out of memory",
        # npu-smi's table: no time cell first
        "| 0     910B3               | OK            | 95.1        51                0    / 0   |",
    ],
    ids=["loguru", "npu-smi"],
)
def test_other_tables_keep_their_own_reading(text):
    assert peeled(peel_table_row, text) is None
