"""The columnar arrays of one timeline response: checkpoints, error markers, stragglers.

One list per field (no object per point) keeps a 20,000-point answer small and quick to
encode. Files and checkpoint labels are renumbered so a response carries only the ones
its points use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from incidents.timeline.stragglers import ratio
from incidents.timeline.types import ErrorMark, LanePoints, PreparedTimeline

DT_SCALE = 1e6  # step times are sent to the microsecond
POINT_FIELDS = ("y", "pos", "t", "dt", "file", "line")
ERROR_FIELDS = ("y", "x", "t", "pos", "file", "line", "text", "causal")
STRAGGLER_FIELDS = ("y", "pos", "t", "dt", "median", "ratio", "file", "line")


def error_x(mark: ErrorMark, axis: str) -> float | None:
    return mark.x if axis == "logical" else mark.t


def num(value: float) -> float | None:
    """NaN is not JSON: missing times and durations travel as null."""
    return None if math.isnan(value) else value


def _take(column: Sequence[Any], indices: Sequence[int]) -> list[Any]:
    return [column[i] for i in indices]


def _nulls(values: list[float]) -> list[float | None]:
    return [None if v != v else v for v in values]  # NaN != NaN


def _durations(values: list[float]) -> list[float | None]:
    """Step times to the microsecond: differences of epoch seconds carry float noise.
    (`round(v * 1e6) / 1e6`: six times faster than `round(v, 6)`, same JSON.)"""
    return [None if v != v else round(v * DT_SCALE) / DT_SCALE for v in values]


class PayloadColumns:
    """Accumulates one response's columns."""

    def __init__(self, timeline: PreparedTimeline, axis: str) -> None:
        self.timeline = timeline
        self.axis = axis
        self.points: dict[str, list[Any]] = {k: [] for k in POINT_FIELDS}
        self.errors: dict[str, list[Any]] = {k: [] for k in ERROR_FIELDS}
        self.stragglers: dict[str, list[Any]] = {k: [] for k in STRAGGLER_FIELDS}
        self.files: dict[int, int] = {}
        self.labels: dict[int, str] = {}
        self.untimed_errors = 0

    @property
    def shown(self) -> int:
        return len(self.points["y"])

    def file(self, file_id: int) -> int:
        return self.files.setdefault(file_id, len(self.files))

    def label(self, pos: int) -> None:
        if pos not in self.labels and 0 <= pos < len(self.timeline.labels):
            self.labels[pos] = self.timeline.labels[pos]

    def add_points(self, y: int, lane: LanePoints, indices: Sequence[int]) -> None:
        """Column by column (one comprehension each): 20,000 points per request."""
        cols = self.points
        positions = [int(p) for p in _take(lane.x, indices)]
        cols["y"].extend([y] * len(positions))
        cols["pos"].extend(positions)
        cols["t"].extend(_nulls(_take(lane.t, indices)))
        cols["dt"].extend(_durations(_take(lane.dt, indices)))
        cols["file"].extend(self._renumbered(_take(lane.file, indices)))
        cols["line"].extend(_take(lane.line, indices))
        self._label_all(positions)

    def _label_all(self, positions: list[int]) -> None:
        labels = self.timeline.labels
        for pos in set(positions).difference(self.labels):
            self.labels[pos] = labels[pos]

    def _renumbered(self, file_ids: list[int]) -> list[int]:
        mapping = {file_id: self.file(file_id) for file_id in set(file_ids)}
        return [mapping[file_id] for file_id in file_ids]

    def add_stragglers(self, y: int, lane: LanePoints, indices: Sequence[int]) -> None:
        """Every straggling point given: the overlay is a list of facts, never sampled."""
        cols, medians = self.stragglers, self.timeline.step_median
        positions = [int(p) for p in _take(lane.x, indices)]
        steps = _take(lane.dt, indices)
        step_medians = [medians[p] for p in positions]
        cols["y"].extend([y] * len(positions))
        cols["pos"].extend(positions)
        cols["t"].extend(_nulls(_take(lane.t, indices)))
        cols["dt"].extend(_durations(steps))
        cols["median"].extend(_durations(step_medians))
        cols["ratio"].extend(map(ratio, steps, step_medians))
        cols["file"].extend(self._renumbered(_take(lane.file, indices)))
        cols["line"].extend(_take(lane.line, indices))
        self._label_all(positions)

    def add_error(self, mark: ErrorMark, y: int) -> None:
        x = error_x(mark, self.axis)
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
        self.label(max(0, int(mark.x)))

    def as_dict(self, with_stragglers: bool) -> dict[str, Any]:
        positions = sorted(self.labels)
        return {
            "points": self.points,
            "errors": self.errors,
            "stragglers": self.stragglers if with_stragglers else None,
            "untimed_errors": self.untimed_errors,
            "files": [self.timeline.files[i] for i in self.files],
            "labels": {"pos": positions, "text": [self.labels[p] for p in positions]},
        }
