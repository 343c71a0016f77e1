"""Values of the prepared timeline (see `incidents.timeline.prepare`), and its clock."""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

NAN = float("nan")

Identity = tuple[str, int]  # (normalised checkpoint text, occurrence index on the rank)


@dataclass(slots=True)
class Lane:
    rank: int
    status: str
    culprit: bool
    missing: bool
    cut: str | None = None  # "file:line" where the rank's log stops mid-line, if it does


@dataclass(slots=True)
class LanePoints:
    """One rank's checkpoints sorted by logical position, as parallel compact arrays."""

    x: array  # logical position: index of the checkpoint's identity in the merged order
    t: array  # skew-corrected seconds since the job's first timed checkpoint; NaN if untimed
    file: array  # index into PreparedTimeline.files
    line: array
    dt: array  # seconds since the rank's previous checkpoint in log order; NaN if untimed
    by_time: array = field(default_factory=lambda: array("q"))  # point indices, by t
    t_sorted: array = field(default_factory=lambda: array("d"))  # t in by_time order
    slow: array = field(default_factory=lambda: array("q"))  # straggling points, by x
    slow_by_time: array = field(default_factory=lambda: array("q"))  # the same, by t

    def __len__(self) -> int:
        return len(self.x)


@dataclass(slots=True)
class ErrorMark:
    rank: int
    x: float  # half-way after the checkpoint the error followed
    t: float | None
    file: int
    line: int
    text: str
    causal: bool  # the job's first causal error, not just this rank's first error


@dataclass(slots=True)
class CommonLine:
    label: str
    x: float
    t: float | None


@dataclass(slots=True)
class PreparedTimeline:
    lanes: list[Lane]
    labels: list[str]  # checkpoint label of every logical position
    files: list[str]
    points: dict[int, LanePoints]
    offsets: dict[int, float]  # seconds each rank's clock runs ahead (already subtracted)
    t0: float | None  # epoch seconds of corrected time zero
    errors: list[ErrorMark] = field(default_factory=list)
    last_common: CommonLine | None = None
    unplaced_causal: dict[str, Any] | None = None  # first causal error of no known rank
    step_median: array = field(default_factory=lambda: array("d"))  # per logical position

    @property
    def total_points(self) -> int:
        return sum(len(p) for p in self.points.values())

    @property
    def has_time(self) -> bool:
        return any(len(p.by_time) for p in self.points.values())


class EpochParser:
    """`epoch_seconds`, with the date-and-minute part of each ISO time parsed only once."""

    def __init__(self) -> None:
        self._minutes: dict[str, float] = {}

    def __call__(self, timestamp: str | None) -> float:
        if not timestamp or len(timestamp) < 18 or timestamp[16] != ":":
            return epoch_seconds(timestamp)
        minute = timestamp[:16]
        base = self._minutes.get(minute)
        if base is None:
            base = self._minutes[minute] = epoch_seconds(minute)
        try:
            return base + float(timestamp[17:])  # fails on a zone suffix: parse in full
        except ValueError:
            return epoch_seconds(timestamp)


def epoch_seconds(timestamp: str | None) -> float:
    """ISO time → epoch seconds; naive times are read as UTC so that ranks compare."""
    if not timestamp:
        return NAN
    try:
        moment = datetime.fromisoformat(timestamp)
    except (TypeError, ValueError):
        return NAN
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


@dataclass(frozen=True, slots=True)
class Clock:
    offsets: Mapping[int, float]
    t0: float | None

    def corrected(self, rank: int, epoch: float) -> float:
        """Seconds since time zero on the job's common clock (NaN when untimed)."""
        if self.t0 is None:
            return NAN
        return round(epoch - self.offsets.get(rank, 0.0) - self.t0, 3)

    def corrected_all(self, rank: int, epochs: list[float]) -> list[float]:
        if self.t0 is None:
            return [NAN] * len(epochs)
        base = self.offsets.get(rank, 0.0) + self.t0
        return [round(epoch - base, 3) for epoch in epochs]
