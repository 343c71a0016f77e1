"""TensorFlow's C++ logger, read by `formats.glog`: torch_xla's XRT client wrote its errors
through it (full date, a colon, the level letter, an optional thread id, the source place).
docs/labelling.md#runtimes-of-other-accelerators
"""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line

TF_LINE = (
    "2023-02-14 03:12:44.500231: E tensorflow/compiler/xla/xla_client/xla_util.cc:90]"
    "   (0) RESOURCE_EXHAUSTED: Attempting to reserve 2.10G at the bottom of memory."
)
TF_LINE_WITH_THREAD = (
    "2020-06-01 11:20:31.101202: E    2291 tensorflow/compiler/xla/xla_client/xla_util.cc:76]"
    " Status: UNIMPLEMENTED: From /job:tpu_worker/replica:0/task:0:"
)


# BytePS's logger writes TensorFlow's header inside brackets.
BYTEPS_LINE = (
    "[2021-03-08 10:41:07.553019: F byteps/common/global.cc:214] Check failed: "
    "num_worker > 0 (0 vs. 0)"
)


def test_the_bracketed_header_of_bytepss_logger_is_read():
    parsed = parse_line(BYTEPS_LINE)
    assert parsed.source == "glog"
    assert parsed.level == "CRITICAL"
    assert parsed.message.startswith("Check failed: num_worker > 0"), parsed.message
    assert parsed.time == datetime(2021, 3, 8, 10, 41, 7, 553019)


@pytest.mark.parametrize(
    ("line", "level", "message_start"),
    [
        (TF_LINE, "ERROR", "  (0) RESOURCE_EXHAUSTED"),
        (TF_LINE_WITH_THREAD, "ERROR", "Status: UNIMPLEMENTED"),
    ],
)
def test_the_header_gives_level_and_message(line, level, message_start):
    parsed = parse_line(line)
    assert parsed.level == level
    assert parsed.message.startswith(message_start), parsed.message


def test_times_and_pids_are_read():
    assert parse_line(TF_LINE).time == datetime(2023, 2, 14, 3, 12, 44, 500231)
    assert parse_line(TF_LINE_WITH_THREAD).pid == 2291


PADDLE_LITE_FATAL = (
    "[F 11/ 3 10:20:31.108 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine]"
    " Check failed: (device_names.size() > 0): 0!>0 No device specified."
)
PADDLE_LITE_VLOG = (
    "[5 12/ 1 14:47:20.561 ...me/dev/Paddle-Lite/lite/core/op_lite.cc:75 operator()]"
    " pick kernel for fetch host/any/any get 1 kernels"
)
PADDLE_LITE_PADDED = (
    "[W 10/30  9:32:46. 24 ...ter/nnadapter/src/runtime/compilation.cc:334 Finish]"
    " Warning: Failed to create a program, No model and cache is provided."
)


@pytest.mark.parametrize(
    ("line", "level", "message_start"),
    [
        (PADDLE_LITE_FATAL, "CRITICAL", "Check failed: (device_names"),
        (PADDLE_LITE_VLOG, "DEBUG", "pick kernel for fetch"),
        (PADDLE_LITE_PADDED, "WARNING", "Warning: Failed to create a program"),
    ],
)
def test_paddle_lites_header_gives_level_and_message(line, level, message_start):
    parsed = parse_line(line)
    assert parsed.source == "glog"
    assert parsed.level == level
    assert parsed.message.startswith(message_start), parsed.message
