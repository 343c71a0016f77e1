"""Lines stamped with seconds since the epoch, as a logging formatter that prints
`%(created)f` writes them: the stamp that opens the line, or follows its rank or level tag,
is the line's time (UTC); a number elsewhere, or one that is no time of this century, is not."""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.timestamps import parse_time, time_span

AT = datetime(2026, 12, 7, 1, 45, 42, 272666)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("stamp-alone", "1796607942.272666", AT),
        ("stamp-then-rank", "1796607942.272666 [rank3] INFO layer 0 passed", AT),
        ("bracketed", "[1796607942.272666] INFO layer 1 passed", AT),
        ("whole-seconds", "1796607942 INFO model run success", datetime(2026, 12, 7, 1, 45, 42)),
        ("after-level", "ERROR 1796607942.272666 [rank3] model run failed", AT),
        ("after-rank-tag", "[rank3] 1796607942.272666 INFO layer 0 passed", AT),
        ("nanoseconds-cut", "1796607942.272666123 INFO x", AT),
    ],
)
def test_an_epoch_stamp_is_a_utc_time(name, text, expected):
    assert parse_time(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "1500000000 bytes written to the cache",
        "pid 1796607942 exited",
        "step 10 loss 1796607942.5",
        "0999999999.5 INFO before 2001",
        "2796607942.5 INFO after 2033",
        "17966079421.5 INFO eleven digits",
        "1796607942.272666x INFO glued",
    ],
)
def test_a_number_that_is_no_leading_stamp_is_no_time(text):
    assert parse_time(text) is None


def test_a_full_date_further_on_does_not_beat_the_leading_stamp():
    text = "1796607942.272666 [rank3] INFO resuming from ckpt of 2026-12-01 00:00:00"
    assert parse_time(text) == AT


def test_the_stamp_is_where_the_checkpoint_reader_finds_the_time():
    assert time_span("1796607942.272666 [rank3] INFO ") == (0, 17)
    assert time_span("[1796607942.27] INFO ") == (1, 14)


@pytest.mark.parametrize(
    ("text", "rank", "level", "message"),
    [
        (
            "1796607948.357836 [rank2] ERROR model run failed: [/__w/pytorch/pytorch/third_party/"
            "gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:39320.",
            2,
            "ERROR",
            "model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
            "pair.cc:553] Connection closed by peer [127.0.0.1]:39320.",
        ),
        ("1796607942.274898 [rank2] INFO layer 0 passed", 2, "INFO", "layer 0 passed"),
        ("[1796607942.330359] INFO layer 1 passed", None, "INFO", "layer 1 passed"),
        ("1796607942 INFO model run success", None, "INFO", "model run success"),
        ("1796607942.218823 [rank3] INFO   norm passed", 3, "INFO", "  norm passed"),
    ],
)
def test_a_stamped_line_has_its_time_rank_and_level(text, rank, level, message):
    line = parse_line(text)
    assert line.time is not None
    assert line.time.replace(microsecond=0) >= datetime(2026, 12, 7, 1, 45, 42)
    assert (line.rank, line.level, line.message) == (rank, level, message)


def test_a_bare_count_opening_the_line_is_no_stamp():
    line = parse_line("1500000000 bytes written to the cache")
    assert line.time is None
    assert line.message == "1500000000 bytes written to the cache"
