"""The Neuron runtime's own lines (`formats.neuron_rt`): month by name, `pid:thread`, the
component column, and its `nrt_infodump` report, which describes the machine except for its
`Failure:` line. docs/labelling.md#runtimes-of-other-accelerators
"""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter

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


@pytest.mark.parametrize(
    ("line", "level", "message_start"),
    [
        (NEURON_ERROR, "ERROR", "Could not open the nd6"),
        (NEURON_SHORT_FRACTION, "ERROR", "Inference completed with err: 1004"),
        (DUMP_FAILURE, "ERROR", "Failure: NRT_INVALID"),
    ],
)
def test_the_header_gives_level_and_message(line, level, message_start):
    parsed = parse_line(line)
    assert parsed.level == level
    assert parsed.message.startswith(message_start), parsed.message


def test_times_and_pids_are_read():
    neuron = parse_line(NEURON_ERROR)
    assert (neuron.time, neuron.pid) == (datetime(2024, 3, 7, 8, 1, 55, 318204), 7715)
    assert neuron.tags["module"] == "TDRV:tdrv_init_mla_phase1"


@pytest.mark.parametrize("line", [DUMP_FIELD, DUMP_ENV])
def test_the_runtime_report_describes_the_machine_and_is_no_error(line):
    parsed = parse_line(line)
    assert parsed.level is None
    assert classify(parsed, load_prefilter()) is None


def test_the_report_failure_line_keeps_its_level():
    assert classify(parse_line(DUMP_FAILURE), load_prefilter()) is not None
