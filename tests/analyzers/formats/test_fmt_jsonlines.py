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


def test_a_cut_object_takes_its_writer_from_the_whole_line():
    """python-json-logger writes `extra` fields after `exc_info`: the head cut at the first
    escaped newline has no rank, the whole line has it."""
    from analyzers.formats.escaped import split_escaped
    from analyzers.formats.jsonlines import complete_writer

    whole = (
        '{"asctime": "2026-12-05 07:08:18,741", "levelname": "ERROR", "name": "infer", '
        '"message": "model run failed: Timed out waiting 6000ms for recv operation to complete", '
        '"exc_info": "Traceback (most recent call last):\\n  File \\"job.py\\", line 242\\n'
        'RuntimeError: Timed out", "rank": 4, "local_rank": 4, "pid": 10996}'
    )
    head = parse_line(split_escaped(whole.encode())[0].decode())
    assert (head.level, head.rank, head.pid) == ("ERROR", None, None)
    complete_writer(head, whole)
    assert (head.rank, head.local_rank, head.pid) == (4, 4, 10996)
    kept = parse_line('{"rank": 2, "message": "x"}')
    complete_writer(kept, '{"rank": 5, "pid": 7, "message": "x"}')
    assert (kept.rank, kept.pid) == (2, 7)  # what the head gave is kept
    tagged = parse_line('[default4]:{"levelname": "ERROR", "message": "x", "exc_info": "T')
    complete_writer(
        tagged, '[default4]:{"levelname": "ERROR", "message": "x", "exc_info": "T\\nb", "rank": 4}'
    )
    assert tagged.rank == 4  # behind a launcher's tag


def test_loguru_serialized_records_give_the_rank_bound_in_extra():
    """loguru `serialize=True` with `logger.bind(rank=3)`: the writer sits in `record`."""
    from analyzers.formats.escaped import split_escaped
    from analyzers.formats.jsonlines import complete_writer

    record = (
        '"record": {"elapsed": {"repr": "0:00:00.006694", "seconds": 0.006694}, "exception": '
        '{"type": "RuntimeError", "value": "boom", "traceback": true}, "extra": {"rank": 3}, '
        '"level": {"icon": "x", "name": "ERROR", "no": 40}, "message": "model run failed: boom", '
        '"process": {"id": 7801, "name": "MainProcess"}}}'
    )
    info = parse_line(
        '{"text": "2026-12-05 07:21:57.703 | INFO     | __main__:info:100 - layer 0 passed\\n", '
        + record
    )
    assert (info.rank, info.pid, info.level) == (3, 7801, "INFO")
    assert info.message.endswith("layer 0 passed")
    whole = (
        '{"text": "2026-12-05 07:21:57.705 | ERROR    | __main__:error_exc:103 - model run '
        'failed: boom\\nTraceback (most recent call last):\\n\\nRuntimeError: boom\\n", ' + record
    )
    head = parse_line(split_escaped(whole.encode())[0].decode())
    assert (head.level, head.rank) == ("ERROR", None)  # the cut head lost its record
    complete_writer(head, whole)
    assert (head.rank, head.pid) == (3, 7801)


def test_an_object_inside_a_message_gives_no_writer():
    from analyzers.formats.jsonlines import complete_writer

    whole = 'ERROR bad request body {"rank": 5, "msg": "a\\nb"}'
    line = parse_line(whole.split("\\n")[0])
    complete_writer(line, whole)
    assert line.rank is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"event": "line", "data": "HSA_STATUS_ERROR_EXCEPTION: hardware exception\\n", "pipe": "stderr"}',
            "HSA_STATUS_ERROR_EXCEPTION: hardware exception",
        ),
        # cut at the escaped newline before the object's closing members (formats.escaped)
        ('{"event": "line", "data": "epoch 3 done', "epoch 3 done"),
    ],
)
def test_an_event_stream_line_record_is_read_by_its_data(line, message):
    """A benchmark runner's event stream names the record's kind in `event` and carries the
    printed line in `data`."""
    parsed = parse_line(line)
    assert (parsed.message, parsed.source) == (message, "jsonlines")


def test_an_event_whose_data_is_no_text_keeps_the_event():
    parsed = parse_line('{"event": "layer_passed", "layer": 7, "data": {"loss": 1.2}}')
    assert parsed.message == "layer 7 passed"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"ts": "2026-11-03T08:12:40.517Z", "rank": 2, "step": 14, "msg": "step done", "loss": 2.71}',
            "step 14 done",
        ),
        ('{"event": "train_step_start", "global_step": 9, "rank": 1}', "train step 9 start"),
        ('{"message": "Step finished", "step": "31"}', "Step 31 finished"),
    ],
)
def test_a_step_line_takes_the_number_of_its_step_field(line, message):
    assert parse_line(line).message == message


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"msg": "step done", "rank": 2}', "step done"),  # no step field
        (
            '{"msg": "optimizer step done", "step": 14}',
            "optimizer step done",
        ),  # not the step's own line
        ('{"msg": "forward passed", "step": 14}', "forward passed"),
    ],
)
def test_other_messages_with_a_step_field_are_kept(line, message):
    assert parse_line(line).message == message
