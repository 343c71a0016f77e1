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


# torch's own log records (torch._logging, torch.distributed, the elastic agent) write glog's
# header with the record's level letter, and a debug record's letter is `V` (verbose), as
# `TORCH_LOGS=+...` or a debug logger level prints them; a critical one's is `C`.
TORCH_VERBOSE = (
    "[rank3]:[rank3]:V0412 08:15:02.337000 90211 */torch/distributed/pipelining/stage.py:1354]"
    " Shape inference: stage 1 receiving from stage 0"
)
TORCH_VERBOSE_AGENT = (
    "V0412 08:14:58.020000 90180 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:601]"
    " The node 'worker-2_90180_0' attempts to join the next round"
)
TORCH_CRITICAL = (
    "C0412 08:20:11.004000 90211 torch/distributed/elastic/agent/server/api.py:712]"
    " worker group stopped"
)


@pytest.mark.parametrize(
    ("line", "level", "message_start", "time"),
    [
        (TORCH_VERBOSE, "DEBUG", "Shape inference: stage 1", (4, 12, 8, 15, 2, 337000)),
        (TORCH_VERBOSE_AGENT, "DEBUG", "The node 'worker-2", (4, 12, 8, 14, 58, 20000)),
        (TORCH_CRITICAL, "CRITICAL", "worker group stopped", (4, 12, 8, 20, 11, 4000)),
    ],
)
def test_torchs_verbose_and_critical_records_are_read(line, level, message_start, time):
    parsed = parse_line(line)
    assert parsed.source == "glog"
    assert parsed.level == level
    assert parsed.message.startswith(message_start), parsed.message
    assert parsed.time is not None
    month, day, hour, minute, second, micro = time
    assert (parsed.time.month, parsed.time.day, parsed.time.hour) == (month, day, hour)
    assert (parsed.time.minute, parsed.time.second, parsed.time.microsecond) == (
        minute,
        second,
        micro,
    )


@pytest.mark.parametrize(
    "line",
    [
        # a word that begins with the letter is no header, nor a letter with no source place
        "VV0412 08:15:02.337000 90211 stage.py:12] x",
        "V0412 08:15:02 waiting",
        "version V0412 08:15:02.337000 is the build",
    ],
)
def test_other_lines_with_the_letter_are_no_torch_record(line):
    assert parse_line(line).source != "glog"


# TensorFlow's TPU support binds the runtime's entry points in a header it includes, and its
# fatal checks name that `.inc` file as their place.
TF_INC_LINE = (
    "2022-02-03 04:05:06.070809: F external/org_tensorflow/tensorflow/core/tpu/"
    "tpu_executor_init_fns.inc:104] TpuCompiler_ShapeSize not available in this library."
)


def test_a_header_that_names_an_included_source_file_is_read():
    parsed = parse_line(TF_INC_LINE)
    assert parsed.source == "glog"
    assert parsed.level == "CRITICAL"
    assert parsed.message == "TpuCompiler_ShapeSize not available in this library."


def test_a_date_and_letter_before_a_path_without_a_source_line_is_no_header():
    parsed = parse_line("2022-02-03 04:05:06.070809: F see tpu_executor_init_fns.inc for details")
    assert parsed.source != "glog"


# docs/labelling.md#checkpoints-a-rank-decorates-or-a-handler-sets-in-columns: a job's own
# Formatter in glog's shape writes its rank where glog has the thread id.
@pytest.mark.parametrize(
    ("line", "rank", "level", "message"),
    [
        (
            "I1204 09:41:17.208 r6 decode.py:131]   attention passed",
            6,
            "INFO",
            "  attention passed",
        ),
        ("W1204 09:41:17.208 rank3 decode.py:139] layer 4 passed", 3, "WARNING", "layer 4 passed"),
        (
            "[default1]:I1204 09:41:17.915 r1 decode.py:131] layer 0 passed",
            1,
            "INFO",
            "layer 0 passed",
        ),
    ],
)
def test_a_rank_tag_in_the_thread_column_is_the_lines_rank(line, rank, level, message):
    parsed = parse_line(line)
    assert (parsed.source, parsed.rank, parsed.level) == ("glog", rank, level)
    assert parsed.message == message
    assert parsed.time.hour == 9
    assert parsed.time.microsecond in (208000, 915000)


def test_a_thread_id_stays_a_pid_and_another_word_is_no_glog_column():
    """Counterexamples: glog's own thread id is still read as the pid, not a rank, and a word
    that is no rank tag in that column leaves the line unread as glog."""
    own = parse_line("I1204 09:41:17.208311 40211 decode.cc:131] attention passed")
    assert (own.rank, own.pid) == (None, 40211)
    other = parse_line("I1204 09:41:17.208 main decode.py:131] attention passed")
    assert other.source != "glog"
    assert other.rank is None
