"""Report → data for the Plotly rank-by-rank checkpoint timeline.

Built for big jobs: 512 ranks × 2,000 checkpoints must reach the browser quickly and
draw in well under two seconds. `prepare_timeline` (see `incidents.timeline.prepare`)
turns a report once into compact per-rank arrays; `timeline_payload` then cuts one
request's window out of them: columnar lists (no object per point), at most `budget`
checkpoints — when there are more, each rank keeps the first and last point of every
bin, culprit ranks keep all theirs while they fit — and every error marker, always.
Pure functions: no request, no database.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from incidents.timeline.columns import PayloadColumns, error_x
from incidents.timeline.prepare import prepare_timeline
from incidents.timeline.query import (
    AXES,
    TimelineQuery,
    TimelineQueryError,
    parse_timeline_query,
)
from incidents.timeline.rankfilter import filter_notice
from incidents.timeline.stragglers import MIN_EXCESS_S, STRAGGLER_FACTOR, window_stragglers
from incidents.timeline.types import Lane, LanePoints, PreparedTimeline

__all__ = [
    "AXES",
    "TimelineQuery",
    "TimelineQueryError",
    "bin_extremes",
    "parse_timeline_query",
    "prepare_timeline",
    "timeline_payload",
]

MIN_PER_LANE = 4  # a downsampled lane still shows where it starts and ends
CULPRIT_SHARE = 4  # culprit lanes keep every point while they need < 1/4 of the budget


# --- one request's window ----------------------------------------------------------------


@dataclass(slots=True)
class _Span:
    """The part of one lane's points that falls inside the window, on one axis."""

    lane: LanePoints
    keys: Sequence[float]  # sorted axis values
    order: Sequence[int] | None  # point index of each key (None: keys are in point order)
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start


def timeline_payload(timeline: PreparedTimeline, query: TimelineQuery) -> dict[str, Any]:
    """The JSON the page draws: lanes, checkpoints, error markers, last common line."""
    lanes = [lane for lane in timeline.lanes if query.ranks is None or lane.rank in query.ranks]
    full = full_range(timeline, query.axis)
    low, high = query.window or full
    spans = _spans(timeline, lanes, query.axis, low, high)
    picked = _pick(spans, lanes, query.budget, low, high)
    out = PayloadColumns(timeline, query.axis)
    slow_counts = _add_lanes(out, timeline, lanes, picked, query, (low, high))
    _add_cut_files(out, timeline, lanes)
    lane_y = {lane.rank: y for y, lane in enumerate(lanes)}
    for mark in timeline.errors:
        if mark.rank in lane_y:
            out.add_error(mark, lane_y[mark.rank])
    total = sum(len(span) for span in spans.values())
    return {
        "axis": query.axis,
        "range": list(full),
        "window": list(query.window) if query.window else None,
        "lanes": {**_lane_columns(timeline, lanes, query.axis), "stragglers": slow_counts},
        **out.as_dict(with_stragglers=query.stragglers),
        "straggler_rule": {"factor": STRAGGLER_FACTOR, "min_excess_s": MIN_EXCESS_S},
        "last_common": _common_line(timeline, query.axis),
        "unplaced_causal": timeline.unplaced_causal,
        "filter_notice": filter_notice(query.ranks, [lane.rank for lane in timeline.lanes]),
        "has_time": timeline.has_time,
        "t0": timeline.t0,
        "total_points": timeline.total_points,
        "in_window": total,
        "shown": out.shown,
        "downsampled": out.shown < total,
    }


def full_range(timeline: PreparedTimeline, axis: str) -> tuple[float, float]:
    """The span of all points and error markers on an axis (a tiny span if empty)."""
    values: list[float] = []
    for lane in timeline.points.values():
        keys = lane.x if axis == "logical" else lane.t_sorted
        if len(keys):
            values += (keys[0], keys[-1])
    values += [x for mark in timeline.errors if (x := error_x(mark, axis)) is not None]
    if not values:
        return (0.0, 1.0)
    low, high = min(values), max(values)
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _add_lanes(
    out: PayloadColumns,
    timeline: PreparedTimeline,
    lanes: list[Lane],
    picked: Mapping[int, Sequence[int]],
    query: TimelineQuery,
    window: tuple[float, float],
) -> list[int]:
    """Each lane's chosen points, and its stragglers in the window (all of them, when
    asked for); returns how many stragglers each lane has in the window."""
    counts = []
    for y, lane in enumerate(lanes):
        points = timeline.points.get(lane.rank)
        if points is None:
            counts.append(0)
            continue
        out.add_points(y, points, picked.get(lane.rank, ()))
        slow = window_stragglers(points, query.axis, *window)
        counts.append(len(slow))
        if query.stragglers:
            out.add_stragglers(y, points, slow)
    return counts


def _add_cut_files(out: PayloadColumns, timeline: PreparedTimeline, lanes: list[Lane]) -> None:
    """The files cut logs stop in, among the payload's files, so a click on a lane's cut
    mark opens its last line (a file with no checkpoint has no link there)."""
    cut_files = {lane.cut.rpartition(":")[0] for lane in lanes if lane.cut}
    for file_id, path in enumerate(timeline.files):
        if path in cut_files:
            out.file(file_id)


def _spans(
    timeline: PreparedTimeline, lanes: list[Lane], axis: str, low: float, high: float
) -> dict[int, _Span]:
    spans = {}
    for lane in lanes:
        points = timeline.points.get(lane.rank)
        if points is None:
            continue
        if axis == "logical":
            keys, order = points.x, None
        else:
            keys, order = points.t_sorted, points.by_time
        start, stop = bisect_left(keys, low), bisect_right(keys, high)
        spans[lane.rank] = _Span(points, keys, order, start, stop)
    return spans


def _pick(
    spans: Mapping[int, _Span], lanes: list[Lane], budget: int, low: float, high: float
) -> dict[int, Sequence[int]]:
    """Point indices to send per rank: all of them, or bin extremes past the budget."""
    total = sum(len(span) for span in spans.values())
    culprits = {lane.rank for lane in lanes if lane.culprit and lane.rank in spans}
    culprit_total = sum(len(spans[rank]) for rank in culprits)
    whole = culprits if culprit_total * CULPRIT_SHARE <= budget else set()
    others = len(spans) - len(whole)
    cap = max(MIN_PER_LANE, (budget - culprit_total * bool(whole)) // max(1, others))
    picked: dict[int, Sequence[int]] = {}
    for rank, span in spans.items():
        if total <= budget or rank in whole or len(span) <= cap:
            chosen: Sequence[int] = range(span.start, span.stop)
        else:
            chosen = bin_extremes(span.keys, span.start, span.stop, low, high, cap // 2)
        picked[rank] = chosen if span.order is None else [span.order[i] for i in chosen]
    return picked


def bin_extremes(
    keys: Sequence[float], start: int, stop: int, low: float, high: float, bins: int
) -> list[int]:
    """Indices of the first and last key of every non-empty bin of [low, high].

    `keys[start:stop]` must be sorted. Binary searches only: the cost depends on the
    number of bins, not on the number of points.
    """
    bins = max(1, bins)
    width = (high - low) / bins
    chosen: list[int] = []
    first = start
    for k in range(1, bins + 1):
        edge = high if k == bins else low + k * width
        end = (
            bisect_right(keys, edge, first, stop)
            if k == bins
            else bisect_left(keys, edge, first, stop)
        )
        if end > first:
            chosen.append(first)
            if end - 1 > first:
                chosen.append(end - 1)
        first = end
    return chosen


def _lane_columns(timeline: PreparedTimeline, lanes: list[Lane], axis: str) -> dict[str, list]:
    """Per lane: rank, status, culprit/missing flags, where its log is cut, clock offset
    and extent on the axis."""
    cols: dict[str, list] = {
        k: [] for k in ("rank", "status", "culprit", "missing", "cut", "offset", "first", "last")
    }
    for lane in lanes:
        points = timeline.points.get(lane.rank)
        keys = (points.x if axis == "logical" else points.t_sorted) if points else ()
        cols["rank"].append(lane.rank)
        cols["status"].append(lane.status)
        cols["culprit"].append(lane.culprit)
        cols["missing"].append(lane.missing)
        cols["cut"].append(lane.cut)
        cols["offset"].append(round(timeline.offsets.get(lane.rank, 0.0), 3))
        cols["first"].append(keys[0] if len(keys) else None)
        cols["last"].append(keys[-1] if len(keys) else None)
    return cols


def _common_line(timeline: PreparedTimeline, axis: str) -> dict[str, Any] | None:
    common = timeline.last_common
    if common is None:
        return None
    x = common.x if axis == "logical" else common.t
    return {"label": common.label, "x": x, "pos": common.x}
