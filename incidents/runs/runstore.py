"""Files an analysis run keeps next to its report: MEDIA_ROOT/stores/run-<id>/.

- the analyzers' line store (a seekable copy of every bundle member, for the log viewer);
- `timeline-v3.bin`: the prepared timeline of the run (`incidents.timeline.prepare`) in a
  compact binary form, so the timeline endpoint never decodes a 100 MB report per request.

A run's directory never moves: evidence links and timeline URLs stay valid.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import struct
import threading
from array import array
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings

from analyzers.core.checkpoint_timeline import Timeline
from incidents.timeline.prepare import prepare_timeline
from incidents.timeline.types import CommonLine, ErrorMark, Lane, LanePoints, PreparedTimeline

log = logging.getLogger(__name__)

TIMELINE_FILE = "timeline-v3.bin"  # older files (no step times, no cut logs) are not read
OLD_TIMELINE_FILES = ("timeline-v2.bin",)  # removed when a run's timeline is prepared again
RAW_TIMELINE_FILE = "timeline-raw.json.gz"
MEMORY_SLOTS = 4  # prepared timelines kept in this process (a big job's is ~40 MB)
_MAGIC = b"RLTIMELINE3\n"
_HEADER = struct.Struct("<Q")


def store_dir_for(run_id: int) -> Path:
    return Path(settings.MEDIA_ROOT) / "stores" / f"run-{run_id}"


def remove_store(run_id: int) -> None:
    """A failed run's partial files are of no use and may be what filled the disk."""
    shutil.rmtree(store_dir_for(run_id), ignore_errors=True)


# --- the prepared timeline on disk --------------------------------------------------------


def save_timeline(timeline: PreparedTimeline, path: Path) -> None:
    """Write atomically: a reader sees the old file, the new one, or none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    header = json.dumps(_header(timeline), separators=(",", ":")).encode()
    part = path.with_name(f"{path.name}.part-{os.getpid()}-{threading.get_ident()}")
    with part.open("wb") as fh:
        fh.write(_MAGIC)
        fh.write(_HEADER.pack(len(header)))
        fh.write(header)
        timeline.step_median.tofile(fh)
        for rank in sorted(timeline.points):
            lane = timeline.points[rank]
            for column in _columns(lane):
                column.tofile(fh)
    os.replace(part, path)


def load_timeline(path: Path) -> PreparedTimeline:
    """Read a file `save_timeline` wrote; ValueError if it is not one (or is damaged)."""
    with path.open("rb") as fh:
        if fh.read(len(_MAGIC)) != _MAGIC:
            raise ValueError(f"{path} is not a prepared timeline")
        (size,) = _HEADER.unpack(fh.read(_HEADER.size))
        if size > path.stat().st_size:
            raise ValueError(f"{path} is truncated")
        header = json.loads(fh.read(size))
        step_median = _read_column(fh, "d", len(header["labels"]))
        points = {rank: _read_lane(fh, *sizes) for rank, *sizes in header["ranks"]}
    return PreparedTimeline(
        lanes=[Lane(*lane) for lane in header["lanes"]],
        labels=header["labels"],
        files=header["files"],
        points=points,
        offsets={int(rank): offset for rank, offset in header["offsets"].items()},
        t0=header["t0"],
        errors=[ErrorMark(*mark) for mark in header["errors"]],
        last_common=CommonLine(*header["last_common"]) if header["last_common"] else None,
        unplaced_causal=header["unplaced_causal"],
        step_median=step_median,
    )


def _columns(lane: LanePoints) -> tuple[array, ...]:
    """A lane's arrays in file order; `_read_lane` reads them back in the same order."""
    return (
        *(lane.x, lane.t, lane.file, lane.line, lane.dt),
        *(lane.by_time, lane.t_sorted, lane.slow, lane.slow_by_time),
    )


def _header(timeline: PreparedTimeline) -> dict[str, Any]:
    common = timeline.last_common
    return {
        "lanes": [
            [lane.rank, lane.status, lane.culprit, lane.missing, lane.cut]
            for lane in timeline.lanes
        ],
        "labels": timeline.labels,
        "files": timeline.files,
        "offsets": {str(rank): offset for rank, offset in timeline.offsets.items()},
        "t0": timeline.t0,
        "errors": [[m.rank, m.x, m.t, m.file, m.line, m.text, m.causal] for m in timeline.errors],
        "last_common": [common.label, common.x, common.t] if common else None,
        "unplaced_causal": timeline.unplaced_causal,
        "ranks": [
            [rank, len(lane), len(lane.by_time), len(lane.slow)]
            for rank, lane in sorted(timeline.points.items())
        ],
    }


def _read_column(fh: Any, typecode: str, size: int) -> array:
    values = array(typecode)
    values.fromfile(fh, size)
    return values


def _read_lane(fh: Any, count: int, timed: int, slow: int) -> LanePoints:
    return LanePoints(
        x=_read_column(fh, "d", count),
        t=_read_column(fh, "d", count),
        file=_read_column(fh, "q", count),
        line=_read_column(fh, "q", count),
        dt=_read_column(fh, "d", count),
        by_time=_read_column(fh, "q", timed),
        t_sorted=_read_column(fh, "d", timed),
        slow=_read_column(fh, "q", slow),
        slow_by_time=_read_column(fh, "q", slow),
    )


def save_timeline_for_report(report: Mapping[str, Any], store_dir: Path) -> None:
    """Prepare a finished run's timeline right away (the worker still holds the report
    in memory). A failure here must not fail the analysis: the page builds it later."""
    try:
        save_timeline(prepare_timeline(report), store_dir / TIMELINE_FILE)
    except Exception:
        log.exception(
            "could not prepare the timeline in %s; it will be built on first view", store_dir
        )


# --- the prepared timeline of a run, cached -----------------------------------------------


class _Memory:
    """A few prepared timelines kept in this process, least recently used dropped first."""

    def __init__(self, slots: int) -> None:
        self._slots = slots
        self._items: OrderedDict[tuple, PreparedTimeline] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> PreparedTimeline | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple, timeline: PreparedTimeline) -> None:
        with self._lock:
            self._items[key] = timeline
            self._items.move_to_end(key)
            while len(self._items) > self._slots:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


memory = _Memory(MEMORY_SLOTS)


def prepared_timeline(run: Any) -> PreparedTimeline:
    """The run's prepared timeline: from memory, from its file, or built from the report."""
    key = (run.pk, run.finished_at)
    found = memory.get(key)
    if found is not None:
        return found
    path = store_dir_for(run.pk) / TIMELINE_FILE
    try:
        timeline = load_timeline(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError, struct.error):
        timeline = prepare_timeline(_report_of(run))
        _save_quietly(timeline, path)
    memory.put(key, timeline)
    return timeline


def _report_of(run: Any) -> Mapping[str, Any]:
    """Callers load runs with the report deferred: it is read here, only when needed.
    The stored report lacks the per-rank checkpoint lists; they live in the run's store."""
    report = dict(run.report or {})
    if "timeline" not in report:
        report["timeline"] = load_raw_timeline(store_dir_for(run.pk))
    return report


def split_off_timeline(report: dict[str, Any], store_dir: Path) -> None:
    """Move the per-rank checkpoint lists out of the report into the run's store.

    A 512-rank bisection run has a million checkpoints: kept in the report, every page
    view and API call would decode ~200 MB of JSON. The prepared timeline serves the page;
    this raw copy lets it be rebuilt.
    """
    timeline = report.pop("timeline", None) or {}
    store_dir.mkdir(parents=True, exist_ok=True)
    part = store_dir / f"{RAW_TIMELINE_FILE}.part-{os.getpid()}"
    with gzip.open(part, "wt", encoding="utf-8", compresslevel=3) as fh:
        json.dump(timeline, fh, separators=(",", ":"))
    os.replace(part, store_dir / RAW_TIMELINE_FILE)


def write_raw_timeline(timeline: Timeline, store_dir: Path) -> None:
    """The run's checkpoint columns, streamed rank by rank into the store (the report in
    the database stays small; the prepared timeline can be rebuilt from this copy)."""
    store_dir.mkdir(parents=True, exist_ok=True)
    part = store_dir / f"{RAW_TIMELINE_FILE}.part-{os.getpid()}"
    with gzip.open(part, "wt", encoding="utf-8", compresslevel=3) as fh:
        timeline.write_json(fh)
    os.replace(part, store_dir / RAW_TIMELINE_FILE)


def load_raw_timeline(store_dir: Path) -> dict[str, Any]:
    try:
        with gzip.open(store_dir / RAW_TIMELINE_FILE, "rt", encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return {}


def _save_quietly(timeline: PreparedTimeline, path: Path) -> None:
    try:
        save_timeline(timeline, path)
        for old in OLD_TIMELINE_FILES:
            (path.parent / old).unlink(missing_ok=True)
    except OSError:
        log.warning("could not cache the prepared timeline at %s", path, exc_info=True)
