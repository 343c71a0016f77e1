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


# docs/labelling.md#numbered-phases-and-identifier-named-events
# An event named as an identifier with its layer in a pair of its own reads as the JSON
# record's does (formats.jsonlines.event_words): the printed line it stands for.
EVENT_NAMES = [
    (
        "timestamp=2026-12-06T17:15:08.434Z level=info event=norm_done layer=1 rank=4",
        "layer 1 norm done",
    ),
    (
        "timestamp=2026-12-06T17:15:08.434Z level=info event=layer_done layer=0 rank=4",
        "layer 0 done",
    ),
    ("event='layer_passed' layer=3 rank=1 level='info'", "layer 3 passed"),
    # counterexamples: a sentence stays as written; a name without a layer pair is its words
    ("event='layer 0 passed' layer=0 rank=2 level='info'", "layer 0 passed"),
    (
        "timestamp=2026-12-06T17:15:08.361Z level=info event=prefill_start tokens=8 rank=4",
        "prefill start",
    ),
]


@pytest.mark.parametrize(("line", "message"), EVENT_NAMES)
def test_identifier_events_read_with_their_layer_pair(line, message):
    assert parse_line(line).message == message


def test_logfmt_event_names_place_each_rank_at_its_layer_part():
    """A job logging through structlog's key=value renderer, each rank to its own file:
    the last event every rank logged is a part of layer 1."""
    from analyzers.checkpoints.patterns import CheckpointMatcher
    from analyzers.timeline.correlate import correlate
    from tests.analyzers.excerpts import scan_text

    lines = [
        "timestamp=2026-12-06T17:15:08.361Z level=info event=prefill_start tokens=8 rank={r}",
        "timestamp=2026-12-06T17:15:08.362Z level=info event=norm_done layer=0 rank={r}",
        "timestamp=2026-12-06T17:15:08.407Z level=info event=attention_done layer=0 rank={r}",
        "timestamp=2026-12-06T17:15:08.434Z level=info event=layer_done layer=0 rank={r}",
        "timestamp=2026-12-06T17:15:08.434Z level=info event=norm_done layer=1 rank={r}",
    ]
    matcher = CheckpointMatcher(())
    scans = [
        scan_text(f"job/logs/worker-{r}.log", "".join(x.format(r=r) + "\n" for x in lines), matcher)
        for r in (0, 1)
    ]
    correlation = correlate(scans, None)
    assert [r.last_checkpoint_qualified for r in correlation.ranks] == ["layer 1 / norm done"] * 2
