"""A date and time before a launch script's or a job's own words, with no level after it
(`analyzers.formats.bare_stamp`).

The lines are shaped like the launch scripts of the held-out gloo jobs (`launch.log` beside
one `log_<rank>.log` per rank): `date '+%F %T'` in front of what the script says.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line
from tests.analyzers.excerpts import scan_text


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        pytest.param(
            "2026-12-07 23:33:10 rank 0 (pid 21307) still running after 16s, sending SIGKILL",
            datetime(2026, 12, 7, 23, 33, 10),
            id="whole-seconds",
        ),
        pytest.param(
            "2026-12-07 23:33:11 rank 5 (pid 21312) exited with code -9",
            datetime(2026, 12, 7, 23, 33, 11),
            id="exit-record",
        ),
        pytest.param(
            "2026-12-07 23:33:10,250 rank 2 (pid 21309) exited with code 1",
            datetime(2026, 12, 7, 23, 33, 10, 250000),
            id="with-milliseconds",
        ),
    ],
)
def test_a_stamp_before_the_scripts_words_is_the_lines_time(text, moment):
    """The stamp gives the time; the words, stamp included, read as before."""
    line = parse_line(text)
    assert (line.time, line.level, line.message) == (moment, None, text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("rank 0 exited with code -9 at 2026-12-07 23:33:10", id="inside-the-words"),
        pytest.param("2026-12-07 23:33:10", id="nothing-after-it"),
        pytest.param("2026-12-07 23:33 rank 0 exited with code -9", id="minutes-only"),
    ],
)
def test_a_date_inside_the_words_or_alone_is_no_stamp(text):
    """Counterexamples: only a full time opening the line, words after it, is its stamp."""
    line = parse_line(text)
    assert (line.time, line.message) == (None, text)


def test_a_logging_header_keeps_its_own_reading():
    line = parse_line("2026-12-07 23:33:10,250 [rank1] ERROR model run failed")
    assert (line.time, line.level, line.rank) == (
        datetime(2026, 12, 7, 23, 33, 10, 250000),
        "ERROR",
        1,
    )
    assert line.message == "model run failed"


def test_the_launch_scripts_records_carry_their_time_as_events():
    text = (
        "2026-12-07 23:32:27 started rank 0 pid 21307\n"
        "2026-12-07 23:33:10 rank 0 (pid 21307) still running after 16s, sending SIGKILL\n"
        "2026-12-07 23:33:10 rank 0 (pid 21307) exited with code -9\n"
    )
    events = scan_text("job-09beb09e/launch.log", text).events
    assert [event.timestamp for event in events] == [datetime(2026, 12, 7, 23, 33, 10)] * 2
