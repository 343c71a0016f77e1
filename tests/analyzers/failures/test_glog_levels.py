"""glog's and abseil's level letter says how bad a line is, whatever its words: `E` an error,
`F` the fatal line a process died on (`LOG(FATAL)`, a failed `CHECK`). The rules read the
message after the header, as they would read it alone.

Headers as C++ runtimes write them: glog's `F1203 10:22:33.123456 12345 file.cc:42] `, glog 0.7
with the year, abseil before its set-up (`F0000 00:00:<epoch seconds>`, XLA, TPU runtimes,
gRPC), and torch c10's own record behind the rank tag (`[rank1]:[F1203 ...]`).
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

BEFORE = "I1203 10:22:30.101200 12345 engine.cc:61] warming up prefill request: tokens=4096\n"
HEADERS = {
    "glog": "{level}1203 10:22:33.311700 12345 embedding_stage.cc:140] ",
    "glog-year": "{level}20261203 10:22:33.311700 12345 embedding_stage.cc:140] ",
    "abseil": "{level}0000 00:00:1796286153.311700    9049 pjrt_client.cc:487] ",
    "c10": "[rank1]:[{level}1203 10:22:33.311700951 ProcessGroupNCCL.cpp:1663] ",
}
UNKNOWN_WORDS = "Slot table for bucket 12 holds stale owner 7"


@pytest.mark.parametrize("header", HEADERS.values(), ids=HEADERS.keys())
@pytest.mark.parametrize("level", ["E", "F"])
def test_an_error_or_fatal_line_in_unknown_words_is_cited(header, level):
    line = header.format(level=level) + UNKNOWN_WORDS
    diagnosis = diagnose_text("serve/engine.log", BEFORE + line + "\n")
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == line


@pytest.mark.parametrize("header", HEADERS.values(), ids=HEADERS.keys())
@pytest.mark.parametrize("level", ["I", "W"])
def test_the_same_words_at_info_or_warning_level_are_not(header, level):
    line = header.format(level=level) + UNKNOWN_WORDS
    assert diagnose_text("serve/engine.log", BEFORE + line + "\n").first_error is None


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("Check failed: cudaSuccess == e (0 vs. 2) : out of memory", "oom"),
        (
            "Non-OK-status: status is: RESOURCE_EXHAUSTED: Out of memory while trying to "
            "allocate 17179869184 bytes.",
            "oom",
        ),
        (
            "[Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=630, "
            "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800085 milliseconds before timing "
            "out.",
            "hccl",
        ),
    ],
    ids=["check-failed-oom", "xla-oom", "watchdog"],
)
@pytest.mark.parametrize("header", HEADERS.values(), ids=HEADERS.keys())
@pytest.mark.parametrize("level", ["E", "F"])
def test_rules_read_the_message_after_the_header(header, level, message, category):
    alone = diagnose_text("serve/engine.log", BEFORE + message + "\n")
    line = header.format(level=level) + message
    behind = diagnose_text("serve/engine.log", BEFORE + line + "\n")
    assert (alone.category, behind.category) == (category, category)
    assert behind.first_error is not None
    assert behind.first_error.text == line
