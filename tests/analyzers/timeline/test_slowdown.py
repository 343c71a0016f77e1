"""Progress that slowed down step by step: the time between a repeated line's repeats grows."""

from __future__ import annotations

from datetime import datetime, timedelta

from analyzers.core.types import Checkpoint, Timeline
from analyzers.timeline.slowdown import seconds, slowdown

T0 = datetime(2026, 12, 7, 7, 44, 30)


def _steps(durations: list[float], layers: int = 2) -> list[Checkpoint]:
    """`step S layer L done` lines then `step S done`, each step taking its duration."""
    points, now = [], T0
    for step, duration in enumerate(durations):
        for layer in range(layers):
            now += timedelta(seconds=duration / layers)
            points.append(Checkpoint(f"layer {layer} done", 0, "log_0.log", 0, now.isoformat()))
        points.append(Checkpoint(f"step {step} done", 0, "log_0.log", 0, now.isoformat()))
    return points


def test_steps_that_grow_every_time_to_seconds_are_a_slowdown() -> None:
    timeline = Timeline.of({0: _steps([0.1, 0.1, 0.3, 0.9, 2.7, 8.1]), 1: _steps([0.1, 0.1])})
    slow = slowdown(timeline)
    assert slow is not None
    # the numbered step line names the pace, not the layer line repeated as it is
    assert (slow.line, slow.rank) == ("step N done", 0)
    assert (round(slow.first_s, 3), round(slow.last_s, 3)) == (0.1, 8.1)


def test_a_repeated_line_shows_the_slowdown_when_no_numbered_line_does() -> None:
    points, now = [], T0
    for duration in [0.2, 0.2, 0.5, 1.0, 2.0, 4.0]:
        now += timedelta(seconds=duration)
        points.append(Checkpoint("layer 0 done", 0, "log_0.log", 0, now.isoformat()))
    slow = slowdown(Timeline.of({0: points}))
    assert slow is not None
    assert slow.line == "layer N done"


def test_a_level_pace_that_stops_is_no_slowdown() -> None:
    # counterexample: steady steps, then the job stops (a hang, a crash): no growth
    assert slowdown(Timeline.of({0: _steps([2.0] * 8)})) is None


def test_growth_that_stays_under_a_second_or_breaks_off_is_no_slowdown() -> None:
    # counterexamples: a warm-up that grows but stays fast, and growth with a step that fell back
    assert slowdown(Timeline.of({0: _steps([0.01, 0.02, 0.04, 0.08, 0.16])})) is None
    assert slowdown(Timeline.of({0: _steps([0.5, 1.0, 2.0, 1.5, 3.0, 6.0])})) is None


def test_lines_without_times_take_no_part() -> None:
    points = [Checkpoint(f"step {s} done", 0, "log_0.log", 0, None) for s in range(8)]
    assert slowdown(Timeline.of({0: points})) is None


def test_seconds_are_written_as_a_reader_says_them() -> None:
    assert [seconds(v) for v in (0.0812, 2.16, 19.6)] == ["0.08 s", "2.2 s", "20 s"]
