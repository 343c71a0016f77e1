"""A level in brackets that is read though its line holds no error word, or lost its blank.

formats/logging_headers.py reads a bracketed level (`[ERROR] text`) as the writer's level. A
guide or a paste can lose the blank after the brackets (`[ERROR]The strategy is ...`): a capital
word still opens the message there. knowledge/prefilter.yaml keeps `[critical]` among the
keywords, since MindSpore's CRITICAL records can say only that a value is invalid
(docs/labelling.md#a-distributed-start-up-that-finds-no-launcher). Values are our own.
"""

from __future__ import annotations

from analyzers.formats.lines import parse_line
from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_a_level_glued_to_a_capital_word_is_the_level() -> None:
    line = parse_line(
        "[ERROR]The plan is ((2, 1)), shape 3 can not be divisible by strategy value 2"
    )
    assert line.level == "ERROR"
    assert line.message.startswith("The plan is")


def test_a_glued_level_before_a_cann_module_is_not_this_header() -> None:
    line = parse_line(
        "[ERROR]HCCL(3021,python3):2026-01-02-03:04:05.678.901 [hccl_socket.cc:532] listen failed"
    )
    assert line.source == "plog"


def test_a_bracket_inside_a_word_is_no_level() -> None:
    line = parse_line("[ERROR]s seen: 0")
    assert line.level is None


def test_a_glued_error_line_is_found_as_the_first_error() -> None:
    text = "[ERROR]The strategy is ((4, 1)), shape 6 can not be divisible by strategy value 4\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert "strategy value 4" in diagnosis.first_error.text


def test_a_critical_record_without_an_error_word_is_read() -> None:
    text = (
        "[CRITICAL] DISTRIBUTED [mindspore/ccsrc/distributed/cluster/cluster_context.cc:130] "
        "InitNodeRole] Role name is invalid.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "config", first_error="Role name is invalid")


def test_an_info_record_of_the_role_is_no_failure() -> None:
    text = (
        "[INFO] DISTRIBUTED(4410,7f0a1b2c3d40,python):2025-03-01-10:11:12.131.415 "
        "[mindspore/ccsrc/distributed/cluster/cluster_context.cc:128] InitNodeRole] "
        "Role name is MS_WORKER.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None
