"""Every time format of the field guide normalises to one naive local datetime."""

from datetime import datetime

import pytest

from analyzers.formats.timestamps import PartialTime, parse_time, resolve, year_from_name

CASES = [
    (
        "plog",
        "[ERROR] RUNTIME(987,):2027-04-02-19:29:32.538.614 [stars_engine.cc:7900]326",
        datetime(2027, 4, 2, 19, 29, 32, 538614),
    ),
    (
        "pta",
        "[ERROR] 2025-05-16-20:08:19 (PID:9649388, Device:2, RankID:2) ERR00100",
        datetime(2025, 5, 16, 20, 8, 19),
    ),
    (
        "error-manager",
        "EE9999[PID: 270] 2027-04-02-19:33:00.762.511 (EE9999): x",
        datetime(2027, 4, 2, 19, 33, 0, 762511),
    ),
    (
        "python-logging",
        "2026-11-29 07:24:28,507 [rank2] ERROR model run failed",
        datetime(2026, 11, 29, 7, 24, 28, 507000),
    ),
    (
        "loguru",
        "2026-02-26 19:18:17.731 | ERROR    | app:run:42 - boom",
        datetime(2026, 2, 26, 19, 18, 17, 731000),
    ),
    (
        "watchdog-query",
        "[227098] [2027-10-14 15:24:01:938] torch.distributed: [ERROR]",
        datetime(2027, 10, 14, 15, 24, 1, 938000),
    ),
    ("elastic", "  time      : 2026-09-07_13:02:58", datetime(2026, 9, 7, 13, 2, 58)),
    (
        "hf-example-month-first",
        "03/07/2026 09:15:02 - WARNING - __main__ - Process rank: 1",
        datetime(2026, 3, 7, 9, 15, 2),
    ),
    (
        "slashed-day-first-when-month-cannot-be",
        "25/07/2026 09:15:02 - INFO - run - x",
        datetime(2026, 7, 25, 9, 15, 2),
    ),
    ("iso-zone", 'time="2024-07-19T10:17:55+08:00" level=info', datetime(2024, 7, 19, 10, 17, 55)),
    (
        "glog-with-year",
        "E20260311 09:15:02.330100 281470001112222 Dvpp.cpp:120] decode failed",
        datetime(2026, 3, 11, 9, 15, 2, 330100),
    ),
]
PARTIAL = [
    (
        "glog",
        "E1129 07:24:27.616993348 26576 api.py:1002] failed",
        PartialTime(11, 29, 7, 24, 27, 616993),
    ),
    (
        "glog-bracket",
        "[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:721] x",
        PartialTime(3, 24, 13, 0, 25, 428029),
    ),
    (
        "vllm",
        "(Worker_DP0_TP5_EP5 pid=270) ERROR 04-02 19:33:00 [multiproc_executor.py:388] x",
        PartialTime(4, 2, 19, 33, 0),
    ),
    ("syslog", "Mar  1 10:00:05 node3 python[4121]: x", PartialTime(3, 1, 10, 0, 5)),
    ("ts", "Nov 29 07:24:27.616 RuntimeError: x", PartialTime(11, 29, 7, 24, 27, 616000)),
    (
        "logging-datefmt-slash",
        "[12/04 13:26:31.235] E decoder.r09 pid=6759 | unhandled exception, rank exiting",
        PartialTime(12, 4, 13, 26, 31, 235000),
    ),
]


@pytest.mark.parametrize(("name", "line", "expected"), CASES, ids=[c[0] for c in CASES])
def test_full_dates(name, line, expected):
    assert parse_time(line) == expected


@pytest.mark.parametrize(("name", "line", "expected"), PARTIAL, ids=[c[0] for c in PARTIAL])
def test_year_less_times_borrow_a_year(name, line, expected):
    partial = parse_time(line)
    assert partial == expected
    assert resolve(partial, 2026) == datetime(
        2026,
        expected.month,
        expected.day,
        expected.hour,
        expected.minute,
        expected.second,
        expected.microsecond,
    )
    assert resolve(partial, None) is None


@pytest.mark.parametrize(
    "line",
    [
        "no time here",
        "step 12:30 of 40",
        "path 2026/12/04 13:24:21 has its year first",
        "version 2026-13-45 nonsense",
        "May 3 runs at 10:00",
    ],
)
def test_lines_without_a_time(line):
    assert parse_time(line) is None


def test_year_from_a_cann_file_name():
    assert year_from_name("worker-0/plog/plog-1382_20250805194601414.log") == 2025
    assert year_from_name("log_3.log") is None


def test_a_month_named_date_with_its_year_is_a_full_time():
    """The Neuron runtime's date (`2023-Aug-03`): the month by name between year and day."""
    assert parse_time("2023-Aug-03 09:27:51.0418 417205:417641 [31]") == datetime(
        2023, 8, 3, 9, 27, 51, 41800
    )


def test_a_torch_verbose_record_has_its_time():
    # torch writes a debug record's level as `V` in front of glog's month-day time
    line = "[rank1]:V0412 08:15:02.337000 90211 */torch/distributed/pipelining/stage.py:1392] x"
    assert parse_time(line) == PartialTime(4, 12, 8, 15, 2, 337000)
    # a letter inside a word is no level letter
    assert parse_time("DEV0412 08:15:02.337000 no time") is None
