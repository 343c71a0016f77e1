"""Where the error markers and the last-common-checkpoint line sit on the timeline."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from statistics import median
from typing import Any

from incidents.timeline.types import (
    NAN,
    Clock,
    CommonLine,
    ErrorMark,
    Identity,
    LanePoints,
    PreparedTimeline,
    epoch_seconds,
)

ERROR_TEXT_LIMIT = 300

FileId = Callable[[str], int]


def place_errors(
    timeline: PreparedTimeline, report: Mapping[str, Any], file_id: FileId, clock: Clock
) -> None:
    """Each rank's first error, and the first causal error, placed among its checkpoints."""
    for summary in report.get("ranks") or []:
        ref = summary.get("first_error")
        if ref and summary.get("rank") is not None:
            timeline.errors.append(_mark(timeline, file_id, clock, ref, summary["rank"], False))
    causal = (report.get("diagnosis") or {}).get("first_error")
    if not causal:
        return
    rank = _rank_of(causal, report)
    if rank is None:
        timeline.unplaced_causal = dict(causal)
    else:
        timeline.errors.append(_mark(timeline, file_id, clock, causal, rank, True))


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
    file_id: FileId,
    clock: Clock,
    ref: Mapping[str, Any],
    rank: int,
    causal: bool,
) -> ErrorMark:
    file = file_id(str(ref.get("file") or ""))
    line = int(ref.get("line") or 0)
    t = clock.corrected(rank, epoch_seconds(ref.get("timestamp")))
    lane = timeline.points.get(rank)
    x, t_before = _after_checkpoint(lane, file, line, t) if lane else (-1.0, NAN)
    t = t if not math.isnan(t) else t_before
    text = str(ref.get("text") or "")[:ERROR_TEXT_LIMIT]
    return ErrorMark(rank, x, None if math.isnan(t) else t, file, line, text, causal)


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


def last_common(
    report: Mapping[str, Any],
    sequences: Sequence[Sequence[Identity]],
    position: Mapping[Identity, int],
    timeline: PreparedTimeline,
) -> CommonLine | None:
    """The latest checkpoint every rank with checkpoints passed (named by the report)."""
    diagnosis = report.get("diagnosis") or {}
    named = diagnosis.get("last_common_checkpoint")
    if not sequences or ("last_common_checkpoint" in diagnosis and not named):
        return None
    occurrence = diagnosis.get("last_common_checkpoint_occurrence")
    if isinstance(occurrence, int) and (named, occurrence - 1) in position:
        pos = position[(named, occurrence - 1)]
        return CommonLine(timeline.labels[pos], float(pos), _median_time(timeline, pos))
    common = set.intersection(*(set(seq) for seq in sequences))
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
