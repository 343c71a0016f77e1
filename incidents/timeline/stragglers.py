"""Step durations and stragglers: which rank took unusually long to reach a checkpoint.

- A rank's **step time** at a checkpoint is the time since that rank's previous checkpoint
  in its own log order (`dt`). Both times come from the same rank's clock, so clock skew
  between hosts cancels out. The first checkpoint of a rank, and any checkpoint where
  either time is missing, has no step time (NaN).
- The **median of a step** is taken over the ranks that logged that logical position
  with a step time. A position that fewer than two ranks timed has no median, so it
  cannot have stragglers.
- A rank **straggles** at a position when its step time is over `STRAGGLER_FACTOR` × that
  median and also at least `MIN_EXCESS_S` above it. Logs often print times to the
  millisecond, and 2 ms against a median of 1 ms is rounding, not a slow rank.

Everything is computed once per run, from every checkpoint (never from the points a
request happens to draw), as compact arrays: a few passes over the points, no object
per point.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from itertools import compress, count, filterfalse
from math import isnan
from operator import gt, sub
from statistics import median

from incidents.timeline.types import NAN, LanePoints

STRAGGLER_FACTOR = 1.5
MIN_EXCESS_S = 0.005
MIN_RANKS = 2


def step_durations(epochs: Sequence[float]) -> list[float]:
    """Seconds since the previous checkpoint, in log order (NaN where a time is missing).

    Not rounded here (a million `round` calls cost seconds): epoch seconds leave ~1e-7 s
    of float noise, which responses round away for the few points they carry.
    """
    if not epochs:
        return []
    return [NAN, *map(sub, epochs[1:], epochs)]


def step_medians(lanes: Iterable[LanePoints], positions: int) -> array:
    """The median step time of every logical position over the ranks that timed it."""
    columns: list[list[float]] = [[] for _ in range(positions)]
    for xs, group in _by_positions(lanes):
        for x, steps in zip(xs, zip(*(lane.dt for lane in group), strict=True), strict=True):
            columns[int(x)].extend(filterfalse(isnan, steps))
    return array("d", [median(c) if len(c) >= MIN_RANKS else NAN for c in columns])


def thresholds(medians: Sequence[float]) -> list[float]:
    """Per position: the step time a rank must exceed to straggle (NaN: nobody can)."""
    return [max(m * STRAGGLER_FACTOR, m + MIN_EXCESS_S) for m in medians]


def mark_stragglers(points: Mapping[int, LanePoints], positions: int) -> array:
    """Fill every lane's `slow` and `slow_by_time`; returns the per-position medians."""
    medians = step_medians(points.values(), positions)
    limits = thresholds(medians)
    for xs, group in _by_positions(points.values()):
        own_limits = [limits[int(x)] for x in xs]
        for lane in group:
            # NaN compares false both ways: untimed steps and unmeasured positions drop out.
            lane.slow = array("q", compress(count(), map(gt, lane.dt, own_limits)))
            lane.slow_by_time = array("q", sorted(lane.slow, key=lane.t.__getitem__))
    return medians


def _by_positions(lanes: Iterable[LanePoints]) -> Iterable[tuple[array, list[LanePoints]]]:
    """Lanes that logged the same positions, grouped: most ranks of a job did, and a group
    is then read column by column in C (zip, map) instead of point by point in Python."""
    groups: dict[bytes, tuple[array, list[LanePoints]]] = {}
    for lane in lanes:
        found = groups.get(key := lane.x.tobytes())
        if found is None:
            groups[key] = (lane.x, [lane])
        else:
            found[1].append(lane)
    return groups.values()


def window_stragglers(lane: LanePoints, axis: str, low: float, high: float) -> Sequence[int]:
    """The lane's straggling points inside [low, high] on an axis: two binary searches.

    Every straggler is timed (it has a step time), so each has a place on both axes.
    """
    if axis == "logical":
        indices, key = lane.slow, lane.x.__getitem__
    else:
        indices, key = lane.slow_by_time, lane.t.__getitem__
    start = bisect_left(indices, low, key=key)
    stop = bisect_right(indices, high, lo=start, key=key)
    return indices[start:stop]


def ratio(dt: float, step_median: float) -> float | None:
    """How many medians a step took (None when there is nothing to compare)."""
    if isnan(dt) or isnan(step_median) or step_median <= 0:
        return None
    return round(dt / step_median, 2)
