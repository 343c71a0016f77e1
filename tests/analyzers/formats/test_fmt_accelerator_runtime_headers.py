"""Log headers of the runtimes under PyTorch on TPUs, Trainium/Inferentia and Tenstorrent
chips: TensorFlow's C++ logger that torch_xla's XRT client used, the Neuron runtime's own
lines (month by name, `pid:thread`, component column) with its `nrt_infodump` report, and
tt-metal's `time | level | component |` logger. docs/labelling.md#runtimes-of-other-accelerators
"""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from analyzers.formats.timestamps import parse_time

TF_LINE = (
    "2023-02-14 03:12:44.500231: E tensorflow/compiler/xla/xla_client/xla_util.cc:90]"
    "   (0) RESOURCE_EXHAUSTED: Attempting to reserve 2.10G at the bottom of memory."
)
TF_LINE_WITH_THREAD = (
    "2020-06-01 11:20:31.101202: E    2291 tensorflow/compiler/xla/xla_client/xla_util.cc:76]"
    " Status: UNIMPLEMENTED: From /job:tpu_worker/replica:0/task:0:"
)
NEURON_ERROR = (
    "2024-Mar-07 08:01:55.318204 7715:7715 ERROR  TDRV:tdrv_init_mla_phase1"
    "                    Could not open the nd6"
)
NEURON_SHORT_FRACTION = (
    "2021-Dec-02 17:40:09.0417 2301:2388 ERROR  NMGR:dlr_infer"
    "                               Inference completed with err: 1004"
)
DUMP_FIELD = (
    "2024-Mar-07 08:01:55.401120 7719:7719 ERROR   NRT:nrt_infodump"
    "                            Kernel: Linux 6.1.0-1019-aws #19-Ubuntu SMP"
)
DUMP_ENV = (
    "2024-Mar-07 08:01:55.402377 7719:7719 ERROR   NRT:nrt_infodump"
    "                                NEURON_RT_VISIBLE_CORES=0-7"
)
DUMP_FAILURE = (
    "2024-Mar-07 08:01:55.409814 7719:7719 ERROR   NRT:nrt_infodump"
    "                            Failure: NRT_INVALID in nrt_load()"
)
TT_CRITICAL = (
    "2026-01-09 14:02:11.876 | critical |          Always | Error during physical chip"
    " discovery: missing connections in 2D mesh. Please check ethernet connection status"
    " (assert.hpp:103)"
)
TT_INFO = (
    "2026-01-09 14:02:10.311 | info     |          Device | Opening user mode device driver"
    " (tt_cluster.cpp:189)"
)


@pytest.mark.parametrize(
    ("line", "level", "message_start"),
    [
        (TF_LINE, "ERROR", "  (0) RESOURCE_EXHAUSTED"),
        (TF_LINE_WITH_THREAD, "ERROR", "Status: UNIMPLEMENTED"),
        (NEURON_ERROR, "ERROR", "Could not open the nd6"),
        (NEURON_SHORT_FRACTION, "ERROR", "Inference completed with err: 1004"),
        (DUMP_FAILURE, "ERROR", "Failure: NRT_INVALID"),
        (TT_CRITICAL, "CRITICAL", "Error during physical chip discovery"),
        (TT_INFO, "INFO", "Opening user mode device driver"),
    ],
)
def test_the_header_gives_level_and_message(line, level, message_start):
    parsed = parse_line(line)
    assert parsed.level == level
    assert parsed.message.startswith(message_start), parsed.message


def test_times_and_pids_are_read():
    assert parse_line(TF_LINE).time == datetime(2023, 2, 14, 3, 12, 44, 500231)
    assert parse_line(TF_LINE_WITH_THREAD).pid == 2291
    neuron = parse_line(NEURON_ERROR)
    assert (neuron.time, neuron.pid) == (datetime(2024, 3, 7, 8, 1, 55, 318204), 7715)
    assert neuron.tags["module"] == "TDRV:tdrv_init_mla_phase1"
    assert parse_line(TT_CRITICAL).time == datetime(2026, 1, 9, 14, 2, 11, 876000)


def test_a_month_named_date_with_its_year_is_a_full_time():
    assert parse_time("2023-Aug-03 09:27:51.0418 417205:417641 [31]") == datetime(
        2023, 8, 3, 9, 27, 51, 41800
    )


@pytest.mark.parametrize("line", [DUMP_FIELD, DUMP_ENV])
def test_the_runtime_report_describes_the_machine_and_is_no_error(line):
    parsed = parse_line(line)
    assert parsed.level is None
    assert classify(parsed, load_prefilter()) is None


def test_the_report_failure_line_keeps_its_level():
    assert classify(parse_line(DUMP_FAILURE), load_prefilter()) is not None
