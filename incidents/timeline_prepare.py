"""A report's checkpoint timeline as compact per-rank arrays, built once per analysis run.

`incidents.charts` cuts request windows out of a `PreparedTimeline`; building it is the
expensive part (one pass over every checkpoint of every rank), so callers cache it.
Each rank's points are kept sorted by logical position, with a second ordering by
corrected time, so a window is two binary searches per rank.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from statistics import median
from typing import Any

from incidents.timeline_order import estimate_clock_offsets, merge_sequences

SKEW_SAMPLE = 256  # shared checkpoints used to estimate clock offsets: plenty, and cheap
ERROR_TEXT_LIMIT = 300
NAN = float("nan")

Identity = tuple[str, int]  # (normalised checkpoint text, occurrence index on the rank)


@dataclass(slots=True)
class Lane:
    rank: int
    status: str
    culprit: bool
    missing: bool


@dataclass(slots=True)
class LanePoints:
    """One rank's checkpoints sorted by logical position, as parallel compact arrays."""

    x: array  # logical position: index of the checkpoint's identity in the merged order
    t: array  # skew-corrected seconds since the job's first timed checkpoint; NaN if untimed
    file: array  # index into PreparedTimeline.files
    line: array
    by_time: array = field(default_factory=lambda: array("q"))  # point indices, by t
    t_sorted: array = field(default_factory=lambda: array("d"))  # t in by_time order

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

    @property
    def total_points(self) -> int:
        return sum(len(p) for p in self.points.values())

    @property
    def has_time(self) -> bool:
        return any(len(p.by_time) for p in self.points.values())


@dataclass(slots=True)
class _RankRows:
    """One rank's checkpoints in log order, before they are placed on the axes."""

    identities: list[Identity]
    epochs: list[float]
    files: list[int]
    lines: list[int]


def prepare_timeline(report: Mapping[str, Any]) -> PreparedTimeline:
    """Lanes, merged logical order, corrected clock and error markers of one report."""
    interner = _Interner()
    rows = {rank: _rank_rows(es, interner) for rank, es in _timeline_entries(report).items()}
    order = merge_sequences(r.identities for r in rows.values())
    position = {identity: pos for pos, identity in enumerate(order)}
    offsets = _clock_offsets(report, rows, position)
    clock = _Clock(offsets, _time_zero(rows, offsets))
    timeline = PreparedTimeline(
        lanes=_lanes(report),
        labels=[interner.labels[identity] for identity in order],
        files=interner.files,
        points={rank: _lane_points(r, position, clock, rank) for rank, r in rows.items()},
        offsets=offsets,
        t0=clock.t0,
    )
    _place_errors(timeline, report, interner, clock)
    timeline.last_common = _last_common(report, rows, position, timeline)
    return timeline


def _lanes(report: Mapping[str, Any]) -> list[Lane]:
    """Every rank the report knows of, plus the ranks `world_size` says existed."""
    summaries = {r["rank"]: r for r in report.get("ranks") or [] if r.get("rank") is not None}
    timeline = report.get("timeline") or {}
    ranks = set(summaries) | {int(k) for k in timeline if k.isdigit()}
    world_size = report.get("world_size")
    if isinstance(world_size, int) and 0 < world_size <= 65_536:
        ranks.update(range(world_size))
    culprits = set((report.get("diagnosis") or {}).get("culprit_ranks") or [])
    lanes = []
    for rank in sorted(ranks):
        status = (summaries.get(rank) or {}).get("status") or "missing"
        silent = rank not in summaries and not timeline.get(str(rank))
        lanes.append(Lane(rank, status, rank in culprits, status == "missing" or silent))
    return lanes


def _timeline_entries(report: Mapping[str, Any]) -> dict[int, list[Mapping[str, Any]]]:
    timeline = report.get("timeline") or {}
    return {int(k): v for k, v in timeline.items() if k.isdigit() and v}


class _Interner:
    """Checkpoint labels by identity, and small integer ids for file paths."""

    def __init__(self) -> None:
        self.labels: dict[Identity, str] = {}
        self.file_ids: dict[str, int] = {}
        self.files: list[str] = []

    def identity(self, entry: Mapping[str, Any]) -> Identity:
        identity = (entry.get("text") or "", entry.get("index") or 0)
        if identity not in self.labels:
            self.labels[identity] = entry.get("qualified") or _plain_label(identity)
        return identity

    def file(self, path: str) -> int:
        found = self.file_ids.get(path)
        if found is None:
            found = self.file_ids[path] = len(self.files)
            self.files.append(path)
        return found


def _plain_label(identity: Identity) -> str:
    text, index = identity
    return text if index == 0 else f"{text} (#{index + 1})"


def _rank_rows(entries: list[Mapping[str, Any]], interner: _Interner) -> _RankRows:
    """Column by column: the hot loop of a big job (a million entries), kept lean."""
    identity, file, parse = interner.identity, interner.file, _EpochParser()
    return _RankRows(
        identities=[identity(e) for e in entries],
        epochs=[parse(e.get("timestamp")) for e in entries],
        files=[file(e.get("file") or "") for e in entries],
        lines=[e.get("line") or 0 for e in entries],
    )


class _EpochParser:
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


# --- clocks ------------------------------------------------------------------------------


def _clock_offsets(
    report: Mapping[str, Any], rows: Mapping[int, _RankRows], position: Mapping[Identity, int]
) -> dict[int, float]:
    """The analyzer's measured offsets when the report has them, else our own estimate."""
    given = _reported_offsets(report)
    if given is not None:
        return given
    sample = _skew_sample(position)
    times = {
        rank: {
            identity: t
            for identity, t in zip(r.identities, r.epochs, strict=True)
            if identity in sample and not math.isnan(t)
        }
        for rank, r in rows.items()
    }
    return estimate_clock_offsets(times)


def _reported_offsets(report: Mapping[str, Any]) -> dict[int, float] | None:
    for holder in (report, report.get("correlation") or {}, report.get("diagnosis") or {}):
        given = holder.get("clock_offsets")
        if isinstance(given, Mapping) and given:
            return {int(k): float(v) for k, v in given.items() if str(k).isdigit()}
    return None


def _skew_sample(position: Mapping[Identity, int]) -> set[Identity]:
    """Evenly spread identities: enough for the offsets without reading every point."""
    step = max(1, len(position) // SKEW_SAMPLE)
    return {identity for identity, pos in position.items() if pos % step == 0}


def _time_zero(rows: Mapping[int, _RankRows], offsets: Mapping[int, float]) -> float | None:
    firsts = [
        min(timed) - offsets.get(rank, 0.0)
        for rank, r in rows.items()
        if (timed := [t for t in r.epochs if not math.isnan(t)])
    ]
    return min(firsts) if firsts else None


@dataclass(frozen=True, slots=True)
class _Clock:
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


def _lane_points(
    rows: _RankRows, position: Mapping[Identity, int], clock: _Clock, rank: int
) -> LanePoints:
    xs = [position[identity] for identity in rows.identities]
    order = sorted(range(len(xs)), key=xs.__getitem__)
    times = clock.corrected_all(rank, rows.epochs)
    lane = LanePoints(
        x=array("d", [xs[i] for i in order]),
        t=array("d", [times[i] for i in order]),
        file=array("q", [rows.files[i] for i in order]),
        line=array("q", [rows.lines[i] for i in order]),
    )
    timed = [i for i, t in enumerate(lane.t) if t == t]  # NaN != NaN: drop untimed points
    timed.sort(key=lane.t.__getitem__)
    lane.by_time = array("q", timed)
    lane.t_sorted = array("d", [lane.t[i] for i in timed])
    return lane


# --- errors and the last common checkpoint -------------------------------------------------


def _place_errors(
    timeline: PreparedTimeline, report: Mapping[str, Any], interner: _Interner, clock: _Clock
) -> None:
    """Each rank's first error, and the first causal error, placed among its checkpoints."""
    for summary in report.get("ranks") or []:
        ref = summary.get("first_error")
        if ref and summary.get("rank") is not None:
            timeline.errors.append(_mark(timeline, interner, clock, ref, summary["rank"], False))
    causal = (report.get("diagnosis") or {}).get("first_error")
    if not causal:
        return
    rank = _rank_of(causal, report)
    if rank is None:
        timeline.unplaced_causal = dict(causal)
    else:
        timeline.errors.append(_mark(timeline, interner, clock, causal, rank, True))


def _rank_of(ref: Mapping[str, Any], report: Mapping[str, Any]) -> int | None:
    """The error's rank, or the rank of the file it is in."""
    if ref.get("rank") is not None:
        return int(ref["rank"])
    for info in (report.get("bundle") or {}).get("files") or []:
        if info.get("path") == ref.get("file") and info.get("rank") is not None:
            return int(info["rank"])
    return None


def _mark(
    timeline: PreparedTimeline,
    interner: _Interner,
    clock: _Clock,
    ref: Mapping[str, Any],
    rank: int,
    causal: bool,
) -> ErrorMark:
    file_id = interner.file(str(ref.get("file") or ""))
    line = int(ref.get("line") or 0)
    t = clock.corrected(rank, epoch_seconds(ref.get("timestamp")))
    lane = timeline.points.get(rank)
    x, t_before = _after_checkpoint(lane, file_id, line, t) if lane else (-1.0, NAN)
    t = t if not math.isnan(t) else t_before
    text = str(ref.get("text") or "")[:ERROR_TEXT_LIMIT]
    return ErrorMark(rank, x, None if math.isnan(t) else t, file_id, line, text, causal)


def _after_checkpoint(lane: LanePoints, file_id: int, line: int, t: float) -> tuple[float, float]:
    """Where an error sits on a lane: just after the checkpoint it followed.

    Same file: by line number. Another file with times: by time. Otherwise: after the
    rank's last checkpoint (an error ends a rank's progress). Returns (x, that time).
    """
    before = [i for i in range(len(lane)) if lane.file[i] == file_id and lane.line[i] < line]
    if before:
        i = max(before, key=lane.line.__getitem__)
        return lane.x[i] + 0.5, lane.t[i]
    if any(lane.file[i] == file_id for i in range(len(lane))):
        return lane.x[0] - 0.5, NAN
    if not math.isnan(t) and len(lane.t_sorted):
        j = bisect_right(lane.t_sorted, t) - 1
        if j >= 0:
            i = lane.by_time[j]
            return lane.x[i] + 0.5, lane.t[i]
        return lane.x[lane.by_time[0]] - 0.5, NAN
    return lane.x[-1] + 0.5, lane.t[-1]


def _last_common(
    report: Mapping[str, Any],
    rows: Mapping[int, _RankRows],
    position: Mapping[Identity, int],
    timeline: PreparedTimeline,
) -> CommonLine | None:
    """The latest checkpoint every rank with checkpoints passed (named by the report)."""
    diagnosis = report.get("diagnosis") or {}
    named = diagnosis.get("last_common_checkpoint")
    if not rows or ("last_common_checkpoint" in diagnosis and not named):
        return None
    common = set.intersection(*(set(r.identities) for r in rows.values()))
    labels = timeline.labels
    matching = [i for i in common if named in (i[0], labels[position[i]])] if named else []
    candidates = matching or list(common)
    if not candidates:
        return None
    pos = max(position[i] for i in candidates)
    return CommonLine(labels[pos], float(pos), _median_time(timeline, pos))


def _median_time(timeline: PreparedTimeline, pos: int) -> float | None:
    times = []
    for lane in timeline.points.values():
        i = bisect_left(lane.x, pos)
        if i < len(lane) and lane.x[i] == pos and not math.isnan(lane.t[i]):
            times.append(lane.t[i])
    return median(times) if times else None
