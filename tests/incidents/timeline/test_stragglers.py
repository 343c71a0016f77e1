"""Step times between a rank's checkpoints, and the ranks that straggle on a step."""

from __future__ import annotations

import math
from array import array

import pytest

from incidents.timeline.charts import TimelineQuery, prepare_timeline, timeline_payload
from incidents.timeline.stragglers import (
    mark_stragglers,
    ratio,
    step_durations,
    step_medians,
    window_stragglers,
)
from incidents.timeline.types import NAN, LanePoints
from tests.incidents.timeline_reports import rank_timeline, straggler_report


def plain(values) -> list[float | None]:
    """NaN → None, so that lists with missing values compare."""
    return [None if math.isnan(v) else v for v in values]


def lane(steps: list[float], *, start: float = 0.0) -> LanePoints:
    """A lane at positions 0, 1, 2, … whose checkpoint n took steps[n] seconds."""
    times, now = [], start
    for step in steps:
        now = now + step if not math.isnan(step) else now
        times.append(now)
    return LanePoints(
        x=array("d", range(len(steps))),
        t=array("d", times),
        file=array("q", [0] * len(steps)),
        line=array("q", range(len(steps))),
        dt=array("d", steps),
    )


# --- step durations ----------------------------------------------------------------------

DURATION_CASES = [
    ("no checkpoints", [], []),
    ("the first checkpoint has no previous one", [100.0], [None]),
    ("seconds between consecutive checkpoints", [100.0, 100.25, 101.75], [None, 0.25, 1.5]),
    (
        "a missing time leaves both neighbours without",
        [1.0, NAN, 3.0, 3.5],
        [None, None, None, 0.5],
    ),
]


@pytest.mark.parametrize(
    ("case", "epochs", "expected"), DURATION_CASES, ids=[c[0] for c in DURATION_CASES]
)
def test_step_durations(case, epochs, expected):
    assert plain(step_durations(epochs)) == expected


def test_durations_follow_the_rank_own_log_order_not_the_merged_order():
    ordered = rank_timeline(0, [("a", "a"), ("b", "b"), ("c", "c")], step_s=1.0)
    swapped = rank_timeline(1, [("a", "a"), ("c", "c"), ("b", "b")], step_s=2.0)
    report = {"timeline": {"0": ordered, "1": swapped, "2": ordered}, "diagnosis": {}}
    timeline = prepare_timeline(report)
    assert timeline.labels == ["a", "b", "c"]
    # rank 1 logged c two seconds after a, then b two seconds after c
    assert plain(timeline.points[1].dt) == [None, 2.0, 2.0]
    assert plain(timeline.points[0].dt) == [None, 1.0, 1.0]


def test_logs_without_times_have_no_durations():
    entries = rank_timeline(0, [("a", "a"), ("b", "b")], skew_s=None)
    timeline = prepare_timeline({"timeline": {"0": entries}, "diagnosis": {}})
    assert plain(timeline.points[0].dt) == [None, None]


def test_hover_durations_come_from_every_checkpoint_not_the_drawn_ones():
    report = straggler_report(ranks=8, slow=5, layers=40, after=10_000)  # nobody slow
    timeline = prepare_timeline(report)
    payload = timeline_payload(timeline, TimelineQuery(budget=100))
    assert payload["downsampled"]
    # the points drawn are far apart, yet each carries its own 50 ms step (float noise of
    # epoch seconds rounded away)
    assert set(payload["points"]["dt"]) == {None, 0.05}


# --- stragglers --------------------------------------------------------------------------

STRAGGLER_CASES = [
    # (case, steps per rank, straggling positions per rank)
    ("nobody is slow", [[NAN, 1.0, 1.0]] * 3, [[], [], []]),
    (
        "one rank over 1.5x the median",
        [[NAN, 1.0, 1.0], [NAN, 1.0, 1.6], [NAN, 1.0, 1.0]],
        [[], [2], []],
    ),
    ("exactly 1.5x is not over", [[NAN, 1.0], [NAN, 1.5], [NAN, 1.0]], [[], [], []]),
    (
        "3 ms against a 1 ms median is clock rounding, not a straggler",
        [[NAN, 0.001]] * 3 + [[NAN, 0.003]],
        [[]] * 4,
    ),
    (
        "10 ms against a 1 ms median is a straggler",
        [[NAN, 0.001]] * 3 + [[NAN, 0.010]],
        [[], [], [], [1]],
    ),
    ("a step only one rank timed has no median", [[NAN, 1.0], [NAN, NAN]], [[], []]),
    ("two ranks: the slow one is over 1.5x their median", [[NAN, 1.0], [NAN, 4.0]], [[], [1]]),
]


@pytest.mark.parametrize(
    ("case", "steps", "expected"), STRAGGLER_CASES, ids=[c[0] for c in STRAGGLER_CASES]
)
def test_mark_stragglers(case, steps, expected):
    points = {rank: lane(s) for rank, s in enumerate(steps)}
    mark_stragglers(points, positions=len(steps[0]))
    assert [list(points[rank].slow) for rank in points] == expected


def test_step_median_is_over_the_ranks_that_timed_the_step():
    points = {0: lane([NAN, 1.0, 2.0]), 1: lane([NAN, 3.0, NAN]), 2: lane([NAN, 8.0, 4.0])}
    assert plain(step_medians(points.values(), 3)) == [None, 3.0, 3.0]


def test_the_slow_rank_of_a_job_is_the_only_straggler():
    timeline = prepare_timeline(straggler_report(ranks=8, slow=5, layers=3, after=5))
    slow = {rank: len(points.slow) for rank, points in timeline.points.items() if points.slow}
    assert list(slow) == [5]
    first = timeline.points[5].slow[0]
    assert timeline.labels[int(timeline.points[5].x[first])] == "layer 1 / norm passed"
    assert timeline.points[5].dt[first] == pytest.approx(0.25)
    assert timeline.step_median[int(timeline.points[5].x[first])] == pytest.approx(0.05)


def test_stragglers_of_a_window_on_either_axis():
    steps = [NAN, 1.0, 5.0, 1.0, 5.0, 5.0]
    points = {0: lane(steps), 1: lane([NAN, *[1.0] * 5]), 2: lane([NAN, *[1.0] * 5])}
    mark_stragglers(points, positions=6)
    assert list(window_stragglers(points[0], "logical", 0, 5)) == [2, 4, 5]
    assert list(window_stragglers(points[0], "logical", 3, 4.5)) == [4]
    # times of rank 0: 0, 1, 6, 7, 12, 17
    assert list(window_stragglers(points[0], "time", 6.5, 17)) == [4, 5]
    assert list(window_stragglers(points[1], "logical", 0, 5)) == []


def test_the_payload_sends_every_straggler_of_the_window_even_when_points_are_sampled():
    timeline = prepare_timeline(straggler_report(ranks=8, slow=5, layers=40, after=20))
    payload = timeline_payload(timeline, TimelineQuery(budget=100, stragglers=True))
    assert payload["downsampled"]
    expected = len(timeline.points[5].slow)
    assert payload["lanes"]["stragglers"] == [0, 0, 0, 0, 0, expected, 0, 0]
    marks = payload["stragglers"]
    assert set(marks["y"]) == {5}
    assert len(marks["pos"]) == expected
    assert set(marks["ratio"]) == {5.0}  # 0.25 s against a median of 0.05 s


def test_straggler_points_are_sent_only_when_asked_for():
    timeline = prepare_timeline(straggler_report())
    payload = timeline_payload(timeline, TimelineQuery())
    assert payload["stragglers"] is None
    assert payload["lanes"]["stragglers"][5] > 0


RATIO_CASES = [
    ("five times the median", 0.25, 0.05, 5.0),
    ("no step time", NAN, 0.05, None),
    ("no median", 0.25, NAN, None),
    ("a zero median", 0.25, 0.0, None),
]


@pytest.mark.parametrize(("case", "dt", "step_median", "expected"), RATIO_CASES)
def test_ratio(case, dt, step_median, expected):
    assert ratio(dt, step_median) == expected
