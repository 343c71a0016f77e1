"""JSON-lines objects give the line its message, rank, level and time; other lines pass."""

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.timestamps import PartialTime

T = datetime(2026, 11, 29, 7, 25, 43, 583000)
EPOCH = datetime(2026, 11, 29, 7, 25, 43)  # 1795937143 seconds, read as UTC

# (id, line, message, level, rank, time)
CASES = [
    (
        "python-json-logger",
        '{"time": "2026-11-29T07:25:43.583", "rank": 3, "level": "INFO", "message": "layer 3 passed"}',
        "layer 3 passed",
        "INFO",
        3,
        T,
    ),
    (
        "structlog-event",
        '{"event": "  attention passed", "level": "info", "timestamp": "2026-11-29T07:25:43.583Z", "global_rank": 12}',
        "  attention passed",
        "INFO",
        12,
        T,
    ),
    (
        "levelname-asctime-string-rank",
        '{"asctime": "2026-11-29 07:25:43,583", "levelname": "ERROR", "RANK": "5", "msg": "RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB"}',
        "RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB",
        "ERROR",
        5,
        T,
    ),
    (
        "severity-epoch-seconds",
        '{"ts": 1795937143, "severity": "WARNING", "message": "HCCL watchdog is slow"}',
        "HCCL watchdog is slow",
        "WARNING",
        None,
        EPOCH,
    ),
    (
        "epoch-milliseconds-at-timestamp",
        '{"@timestamp": 1795937143583, "level": "INFO", "rank": 0, "message": "decode step 7 passed"}',
        "decode step 7 passed",
        "INFO",
        0,
        EPOCH.replace(microsecond=583000),
    ),
    (
        "docker-json-file-inner-prefix",
        '{"log":"[rank2]:[E1129 07:25:43.583000 hooks.cpp:12] watchdog timeout\\n","stream":"stderr","time":"2026-11-29T07:25:44.1Z"}',
        "watchdog timeout",
        "ERROR",
        2,
        PartialTime(11, 29, 7, 25, 43, 583000),
    ),
    (
        "cut-at-an-escaped-newline",
        '{"time": "2026-11-29T07:25:43.583", "rank": 1, "level": "ERROR", "message": "Traceback (most recent call last):',
        "Traceback (most recent call last):",
        "ERROR",
        1,
        T,
    ),
]


@pytest.mark.parametrize(
    ("line", "message", "level", "rank", "time"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_json_line_fields(line, message, level, rank, time):
    parsed = parse_line(line)
    assert (parsed.message, parsed.level, parsed.rank, parsed.time) == (
        message,
        level,
        rank,
        time,
    )


@pytest.mark.parametrize(
    "line",
    [
        "{'loss': 0.52, 'grad_norm': 1.3}",
        '{"loss": 0.52, "step": 100}',
        '["layer 3 passed"]',
        "{ layer 3 passed",
    ],
)
def test_other_braced_lines_stay_plain_text(line):
    parsed = parse_line(line)
    assert (parsed.message, parsed.source) == (line, None)


def test_a_json_object_under_a_torchrun_prefix_is_read():
    parsed = parse_line('[default1]:{"level": "INFO", "message": "layer 0 passed"}')
    assert (parsed.message, parsed.level, parsed.local_rank) == ("layer 0 passed", "INFO", 1)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '\t"message": "indices should be either on cpu (cuda:1)",',
            "indices should be either on cpu (cuda:1)",
        ),
        (
            '    "evalue": "CUDA out of memory. Tried to allocate 2.00 GiB"',
            "CUDA out of memory. Tried to allocate 2.00 GiB",
        ),
        ('"message": "a \\"quoted\\" word",', 'a "quoted" word'),
    ],
)
def test_an_error_objects_message_member_is_read_unquoted(line, message):
    parsed = parse_line(line)
    assert (parsed.message, parsed.source) == (message, "jsonlines")


@pytest.mark.parametrize(
    "line",
    ['"name": "RuntimeError",', '"message": "",', '"message": "cut here', "message: plain words"],
)
def test_other_member_lines_stay_plain_text(line):
    assert parse_line(line).source is None
