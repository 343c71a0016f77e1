"""Report → data for the Plotly rank-by-rank checkpoint timeline.

Built for big jobs: 512 ranks × 2,000 checkpoints must reach the browser quickly and
draw in well under two seconds. `prepare_timeline` (see `incidents.timeline_prepare`)
turns a report once into compact per-rank arrays; `timeline_payload` then cuts one
request's window out of them: columnar lists (no object per point), at most `budget`
checkpoints — when there are more, each rank keeps the first and last point of every
bin, culprit ranks keep all theirs while they fit — and every error marker, always.
Pure functions: no request, no database.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from incidents.timeline_prepare import prepare_timeline
from incidents.timeline_query import (
    AXES,
    TimelineQuery,
    TimelineQueryError,
    parse_timeline_query,
)
from incidents.timeline_types import ErrorMark, Lane, LanePoints, PreparedTimeline

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
    out = _Columns(timeline, query.axis)
    for y, lane in enumerate(lanes):
        out.add_points(y, spans.get(lane.rank), picked.get(lane.rank, ()))
    lane_y = {lane.rank: y for y, lane in enumerate(lanes)}
    for mark in timeline.errors:
        if mark.rank in lane_y:
            out.add_error(mark, lane_y[mark.rank])
    total = sum(len(span) for span in spans.values())
    return {
        "axis": query.axis,
        "range": list(full),
        "window": list(query.window) if query.window else None,
        "lanes": _lane_columns(timeline, lanes, query.axis),
        **out.as_dict(),
        "last_common": _common_line(timeline, query.axis),
        "unplaced_causal": timeline.unplaced_causal,
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
    values += [_error_x(mark, axis) for mark in timeline.errors if _error_x(mark, axis) is not None]
    if not values:
        return (0.0, 1.0)
    low, high = min(values), max(values)
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _error_x(mark: ErrorMark, axis: str) -> float | None:
    return mark.x if axis == "logical" else mark.t


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


class _Columns:
    """Accumulates the payload's columnar arrays; files and labels are renumbered so the
    payload carries only the ones it uses."""

    def __init__(self, timeline: PreparedTimeline, axis: str) -> None:
        self.timeline = timeline
        self.axis = axis
        self.points: dict[str, list[Any]] = {k: [] for k in ("y", "pos", "t", "file", "line")}
        self.errors: dict[str, list[Any]] = {
            k: [] for k in ("y", "x", "t", "pos", "file", "line", "text", "causal")
        }
        self.files: dict[int, int] = {}
        self.labels: dict[int, str] = {}
        self.untimed_errors = 0

    @property
    def shown(self) -> int:
        return len(self.points["y"])

    def file(self, file_id: int) -> int:
        return self.files.setdefault(file_id, len(self.files))

    def add_points(self, y: int, span: _Span | None, indices: Sequence[int]) -> None:
        if span is None:
            return
        lane, cols, labels = span.lane, self.points, self.timeline.labels
        for i in indices:
            pos = int(lane.x[i])
            cols["y"].append(y)
            cols["pos"].append(pos)
            cols["t"].append(_num(lane.t[i]))
            cols["file"].append(self.file(lane.file[i]))
            cols["line"].append(lane.line[i])
            if pos not in self.labels:
                self.labels[pos] = labels[pos]

    def add_error(self, mark: ErrorMark, y: int) -> None:
        x = _error_x(mark, self.axis)
        if x is None:
            self.untimed_errors += 1
            return
        cols = self.errors
        for key, value in (("y", y), ("x", x), ("t", mark.t), ("pos", mark.x)):
            cols[key].append(value)
        cols["file"].append(self.file(mark.file))
        cols["line"].append(mark.line)
        cols["text"].append(mark.text)
        cols["causal"].append(mark.causal)
        pos = max(0, int(mark.x))
        if pos < len(self.timeline.labels) and pos not in self.labels:
            self.labels[pos] = self.timeline.labels[pos]

    def as_dict(self) -> dict[str, Any]:
        positions = sorted(self.labels)
        return {
            "points": self.points,
            "errors": self.errors,
            "untimed_errors": self.untimed_errors,
            "files": [self.timeline.files[i] for i in self.files],
            "labels": {"pos": positions, "text": [self.labels[p] for p in positions]},
        }


def _num(value: float) -> float | None:
    return None if math.isnan(value) else value


def _lane_columns(timeline: PreparedTimeline, lanes: list[Lane], axis: str) -> dict[str, list]:
    """Per lane: rank, status, culprit/missing flags, clock offset and extent on the axis."""
    cols: dict[str, list] = {
        k: [] for k in ("rank", "status", "culprit", "missing", "offset", "first", "last")
    }
    for lane in lanes:
        points = timeline.points.get(lane.rank)
        keys = (points.x if axis == "logical" else points.t_sorted) if points else ()
        cols["rank"].append(lane.rank)
        cols["status"].append(lane.status)
        cols["culprit"].append(lane.culprit)
        cols["missing"].append(lane.missing)
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
