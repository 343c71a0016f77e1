"""structlog's KeyValueRenderer lines: the `event` value is the message, the other pairs give
the level, time and the writer's rank, whatever order the keys come in."""

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line

T = datetime(2026, 12, 5, 7, 6, 56, 172795)
TIMEOUT = (
    "model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer"
    ".cc:78] Timed out waiting 6000ms for recv operation to complete"
)

# (id, line, message, level, rank, time)
CASES = [
    (
        "key-order-timestamp-level-event",
        "timestamp='2026-12-05T07:06:56.172795Z' level='info' event='  norm passed' rank=0",
        "  norm passed",
        "INFO",
        0,
        T,
    ),
    (
        "event-first-as-the-event-dict-holds-it",
        "event='layer 0 passed' rank=2 level='info' timestamp='2026-12-05T07:06:56.172795Z'",
        "layer 0 passed",
        "INFO",
        2,
        T,
    ),
    (
        # format_exc_info's traceback pair, cut at its first escaped newline (formats.escaped)
        "error-with-a-cut-exception-pair",
        f"timestamp='2026-12-05T07:06:56.172795Z' level='error' event='{TIMEOUT}' rank=3 "
        "exception='Traceback (most recent call last):",
        TIMEOUT,
        "ERROR",
        3,
        T,
    ),
    (
        "double-quoted-repr-with-a-quote-inside",
        "event=\"model run failed: 'layers.2.moe.w1'\" level='error' rank=1",
        "model run failed: 'layers.2.moe.w1'",
        "ERROR",
        1,
        None,
    ),
]


@pytest.mark.parametrize(
    ("line", "message", "level", "rank", "time"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_structlog_key_value_lines(line, message, level, rank, time):
    parsed = parse_line(line)
    assert (parsed.message, parsed.level, parsed.rank) == (message, level, rank)
    assert parsed.time == time


@pytest.mark.parametrize(
    "line",
    [
        # logfmt has msg, not event: formats.pylogging reads it
        'ts=2026-12-04T18:34:36.707Z level=info rank=1 msg="  norm passed"',
        # prose that names an event= pair is no record
        "the scheduler logged event=preempt for request 7",
        "event=",
        "ERROR: failed to post event='x' to the bus: connection refused",
    ],
)
def test_other_lines_keep_their_text(line):
    parsed = parse_line(line)
    assert parsed.source != "keyvalue"
