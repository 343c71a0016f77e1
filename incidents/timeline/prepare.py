"""A report's checkpoint timeline as compact per-rank arrays, built once per analysis run.

`incidents.timeline.charts` cuts request windows out of a `PreparedTimeline`; building it is the
expensive part (one pass over every checkpoint of every rank), so callers cache it.
Each rank's points are kept sorted by logical position, with a second ordering by
corrected time, so a window is two binary searches per rank.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from incidents.timeline.cut_logs import rank_cuts
from incidents.timeline.marks import last_common, place_errors
from incidents.timeline.order import estimate_clock_offsets, merge_sequences
from incidents.timeline.stragglers import mark_stragglers, step_durations
from incidents.timeline.types import (
    Clock,
    EpochParser,
    Identity,
    Lane,
    LanePoints,
    PreparedTimeline,
)

SKEW_SAMPLE = 256  # shared checkpoints used to estimate clock offsets: plenty, and cheap


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
    rows = _all_rank_rows(report.get("timeline") or {}, interner)
    order = merge_sequences(r.identities for r in rows.values())
    position = {identity: pos for pos, identity in enumerate(order)}
    offsets = _clock_offsets(report, rows, position)
    clock = Clock(offsets, _time_zero(rows, offsets))
    timeline = PreparedTimeline(
        lanes=_lanes(report),
        labels=[interner.labels[identity] for identity in order],
        files=interner.files,
        points={rank: _lane_points(r, position, clock, rank) for rank, r in rows.items()},
        offsets=offsets,
        t0=clock.t0,
    )
    timeline.step_median = mark_stragglers(timeline.points, len(order))
    place_errors(timeline, report, interner.file, clock)
    sequences = [r.identities for r in rows.values()]
    timeline.last_common = last_common(report, sequences, position, timeline)
    return timeline


def _lanes(report: Mapping[str, Any]) -> list[Lane]:
    """Every rank the report knows of, plus the ranks `world_size` says existed (none when
    the launcher never started its workers: they did not exist)."""
    summaries = {r["rank"]: r for r in report.get("ranks") or [] if r.get("rank") is not None}
    timeline = _per_rank(report.get("timeline") or {})
    ranks = set(summaries) | {int(k) for k in timeline if k.isdigit()}
    world_size = report.get("world_size")
    started = (report.get("correlation") or {}).get("workers_started", True)
    if started and isinstance(world_size, int) and 0 < world_size <= 65_536:
        ranks.update(range(world_size))
    culprits = set((report.get("diagnosis") or {}).get("culprit_ranks") or [])
    lanes = []
    for rank in sorted(ranks):
        status = (summaries.get(rank) or {}).get("status") or "missing"
        silent = rank not in summaries and not timeline.get(str(rank))
        cut = _cut_at(summaries.get(rank), report.get("bundle"))
        lanes.append(Lane(rank, status, rank in culprits, status == "missing" or silent, cut))
    return lanes


def _cut_at(summary: Mapping[str, Any] | None, bundle: Mapping[str, Any] | None) -> str | None:
    """Where the rank's log stops mid-line, as "file:line": its lane may end early because
    the file does, not because the rank stopped there."""
    cuts = rank_cuts(summary, bundle) if summary else []
    return f"{cuts[0]['file']}:{cuts[0].get('line') or 0}" if cuts else None


def _per_rank(timeline: Mapping[str, Any]) -> Mapping[str, Any]:
    """Rank -> that rank's checkpoints, in either report layout."""
    return timeline.get("ranks") or {} if _columnar(timeline) else timeline


def _columnar(timeline: Mapping[str, Any]) -> bool:
    """Schema 2 reports keep the timeline as columns; schema 1 as a list per rank."""
    return isinstance(timeline.get("texts"), list) and isinstance(timeline.get("ranks"), Mapping)


def _all_rank_rows(timeline: Mapping[str, Any], interner: _Interner) -> dict[int, _RankRows]:
    if _columnar(timeline):
        return {
            int(rank): _column_rows(timeline, columns, interner)
            for rank, columns in timeline["ranks"].items()
            if str(rank).isdigit() and columns.get("text")
        }
    return {int(k): _rank_rows(v, interner) for k, v in timeline.items() if k.isdigit() and v}


class _Interner:
    """Checkpoint labels by identity, and small integer ids for file paths."""

    def __init__(self) -> None:
        self.labels: dict[Identity, str] = {}
        self._canonical: dict[Identity, Identity] = {}
        self.file_ids: dict[str, int] = {}
        self.files: list[str] = []

    def labelled(self, identity: Identity, label: str) -> Identity:
        """The one shared tuple for this identity: ranks repeat the same identities, and a
        million points must not hold a million equal tuples."""
        known = self._canonical.get(identity)
        if known is not None:
            return known
        self._canonical[identity] = identity
        self.labels[identity] = label
        return identity

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
    identity, file, parse = interner.identity, interner.file, EpochParser()
    return _RankRows(
        identities=[identity(e) for e in entries],
        epochs=[parse(e.get("timestamp")) for e in entries],
        files=[file(e.get("file") or "") for e in entries],
        lines=[e.get("line") or 0 for e in entries],
    )


def _column_rows(
    timeline: Mapping[str, Any], columns: Mapping[str, Any], interner: _Interner
) -> _RankRows:
    """One rank of a columnar timeline: identities counted as (text, occurrence)."""
    texts, labels, paths = timeline["texts"], timeline["labels"], timeline["files"]
    seen: dict[int, int] = {}
    identities = []
    for text_id, label_id in zip(columns["text"], columns["label"], strict=False):
        index = seen.get(text_id, 0)
        seen[text_id] = index + 1
        identities.append(interner.labelled((texts[text_id], index), labels[label_id]))
    t0 = timeline.get("t0")
    epochs = [math.nan if t0 is None or t is None else t0 + t / 1e6 for t in columns["time_us"]]
    files: list[int] = []
    for file_id, count in columns["file"]:
        files.extend([interner.file(paths[file_id])] * count)
    return _RankRows(identities, epochs, files, list(columns["line"]))


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


def _lane_points(
    rows: _RankRows, position: Mapping[Identity, int], clock: Clock, rank: int
) -> LanePoints:
    xs = [position[identity] for identity in rows.identities]
    order = sorted(range(len(xs)), key=xs.__getitem__)
    times = clock.corrected_all(rank, rows.epochs)
    durations = step_durations(rows.epochs)  # in log order, before sorting by position
    lane = LanePoints(
        x=array("d", [xs[i] for i in order]),
        t=array("d", [times[i] for i in order]),
        file=array("q", [rows.files[i] for i in order]),
        line=array("q", [rows.lines[i] for i in order]),
        dt=array("d", [durations[i] for i in order]),
    )
    timed = [i for i, t in enumerate(lane.t) if t == t]  # NaN != NaN: drop untimed points
    timed.sort(key=lane.t.__getitem__)
    lane.by_time = array("q", timed)
    lane.t_sorted = array("d", [lane.t[i] for i in timed])
    return lane
