"""torch_npu's own lines (`formats.torch_npu`): the PTA summary with its PID and rank, CANN's
error-manager headlines, and the NPU warnings of torch_npu's C++ code."""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats import torch_npu
from analyzers.formats.lines import parse_line

PTA = (
    "[ERROR] 2026-03-18-14:02:51 (PID:41077, Device:5, RankID:13) ERR01002 OPS invalid"
    " type of the input"
)


def test_the_pta_summary_gives_level_time_pid_and_rank():
    parsed = parse_line(PTA)
    assert parsed.source == torch_npu.NAME
    assert parsed.level == "ERROR"
    assert parsed.time == datetime(2026, 3, 18, 14, 2, 51)
    assert (parsed.pid, parsed.rank) == (41077, 13)
    assert parsed.message == "ERR01002 OPS invalid type of the input"


def test_rank_minus_one_names_no_rank():
    parsed = parse_line(
        "[WARN] 2026-03-18-14:02:51 (PID:41077, Device:-1, RankID:-1) ERR05001 device not set"
    )
    assert (parsed.source, parsed.level, parsed.pid) == (torch_npu.NAME, "WARNING", 41077)
    assert parsed.rank is None


@pytest.mark.parametrize(
    "line",
    [
        "EE1001: [PID: 41077] 2026-03-18-14:02:51.406.118 The argument is invalid.",
        "EZ9999[PID: 41077] 2026-03-18-14:02:51.406.118 (EZ9999):  rtStreamSynchronize failed",
        "[PID: 41077] 2026-03-18-14:02:51.406.118 Invalid_Argument(EE1001): The argument is"
        " invalid.",
        "AclNN_Parameter_Error(EZ1001): Tensor self not implemented for DT_BFLOAT16,",
        # a reply that quoted the headline with its own indent
        "    EZ9999: Inner Error!",
    ],
    ids=["code-colon", "code-pid", "pid-first", "named", "indented"],
)
def test_error_manager_headlines_keep_their_whole_text(line):
    parsed = parse_line(line)
    assert parsed.source == torch_npu.CANN
    assert parsed.message == line.strip()


def test_a_headline_gives_the_runtimes_pid_and_time():
    parsed = parse_line("EE9999: [PID: 52210] 2026-04-02-08:15:44.310.902 Inner Error!")
    assert parsed.pid == 52210
    assert parsed.time == datetime(2026, 4, 2, 8, 15, 44, 310902)


def test_an_indented_glog_record_is_no_headline():
    assert parse_line("  E1105 08:01:12.000417 3114 socket.cpp:922] connect failed").source != (
        torch_npu.CANN
    )


def test_an_npu_warning_of_the_cpp_code():
    parsed = parse_line(
        "[W NPUStream.cpp:612] Warning: NPU warning, error code is 107020[Error]: ."
    )
    assert (parsed.source, parsed.level) == (torch_npu.NAME, "WARNING")
    assert parsed.message == "Warning: NPU warning, error code is 107020[Error]: ."


@pytest.mark.parametrize(
    ("message", "pid"),
    [
        ("EZ9999: [PID: 959] 2026-03-18-14:02:51.406.118 Inner Error!", 959),
        # the space after the colon is optional
        ("EI0006:[PID:3301] 2026-03-18-14:02:51.406.118 Getting socket times out.", 3301),
        ("EZ9999: Inner Error!", None),
    ],
)
def test_headline_pid(message, pid):
    assert torch_npu.headline_pid(message) == pid


@pytest.mark.parametrize(
    ("message", "open_ended", "has_text"),
    [
        # the text comes on the next lines
        ("AclNN_Parameter_Error(EZ1001):", True, False),
        ("EZ9999:", True, False),
        # cut after a comma: what it is about, then what is wrong
        ("EZ9999: [PID: 41077] 2026-03-18-14:02:51.406.118 (E89999):  op[MatMulV3],", True, False),
        (
            "AclNN_Parameter_Error(EZ1001): Tensor self not implemented for DT_BFLOAT16,",
            True,
            True,
        ),
        # a whole sentence
        ("EE1001: [PID: 41077] 2026-03-18-14:02:51.406.118 The argument is invalid.", False, False),
    ],
    ids=["named-empty", "code-empty", "tag-then-comma", "clause-then-comma", "whole"],
)
def test_headlines_that_go_on_below(message, open_ended, has_text):
    assert torch_npu.is_open_headline(message) == open_ended
    assert torch_npu.headline_has_text(message) == has_text
