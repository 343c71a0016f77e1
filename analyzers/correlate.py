"""Compare the ranks' checkpoint sequences: who stopped where, who went its own way.

Input is the per-file scans; CHECKPOINT events carry the normalised text in `message`
(`layer 2 passed`, `attention passed`). A checkpoint's identity is its text plus its
occurrence index on that rank (the 3rd `norm passed` of rank 0 and the 3rd of rank 5 are
the same logical point), so ranks are compared without trusting their clocks. Where lines
carry time, per-rank clock offsets are estimated from the shared checkpoints.

One rank's lines may sit in several files (stdout and stderr, and the launcher's
`[default3]:` copy of both); they are merged in order and a checkpoint seen in two files
counts once.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from analyzers.checkpoints import is_killed_line, normalise, qualified_names
from analyzers.divergence import divergence
from analyzers.limits import plausible_rank
from analyzers.rank_status import RankFiles, as_int, elastic_exits, epoch, rank_summary
from analyzers.types import (
    Checkpoint,
    Correlation,
    Event,
    EventKind,
    FileKind,
    FileScan,
)

Key = tuple[str, int]  # (normalised text, occurrence index on the rank)

# A rank's own log is the better citation than the launcher's copy of the same line.
_FILE_PRIORITY = {FileKind.RANK_LOG: 0, FileKind.LAUNCHER: 2}
# In a launcher log, lines the agent writes itself (glog lines, the ChildFailedError summary)
# report on a rank; its exit is read from facts["elastic_failures"], and these lines are
# neither the rank's output nor its first error. Copies of a rank's output carry a tag.
_LAUNCHER_SOURCES = frozenset({"elastic", "glog"})
_RANK_OUTPUT_TAG = re.compile(
    r"\s*(?:\[default\d+\]:|\[rank\d+\]:|\[\d+,\d+\]<std(?:out|err)>:|\d+: )"
)


def correlate(scans: Sequence[FileScan], world_size_hint: int | None) -> Correlation:
    """Per-rank timelines and statuses plus the job-level comparison of the ranks."""
    by_rank = _collect(scans)
    world_size = _world_size(world_size_hint, scans, by_rank)
    ranks = sorted(set(range(world_size or 0)) | set(by_rank))
    missing = [r for r in ranks if r not in by_rank or not by_rank[r].present]
    tracks = {r: _timeline(_merged_checkpoints(by_rank[r])) for r in ranks if r not in missing}
    timeline = {r: tracks[r][0] if r in tracks else [] for r in ranks}
    present = {r: timeline[r] for r in ranks if r not in missing}
    exits = elastic_exits(scans)
    summaries = [
        rank_summary(r, by_rank.get(r), timeline[r], r in missing, exits.get(r)) for r in ranks
    ]
    common = last_common(present)
    ahead, behind = _ahead_behind({s.rank: s.checkpoints for s in summaries if s.rank in present})
    divergent, sentence = divergence(present)
    return Correlation(
        ranks=summaries,
        timeline=timeline,
        world_size=world_size,
        last_common_checkpoint=common.text if common else None,
        ahead_ranks=ahead,
        behind_ranks=behind,
        missing_ranks=missing,
        divergent_ranks=divergent,
        divergence=sentence,
        clock_offsets=_offsets({r: timed for r, (_, timed) in tracks.items()}),
    )


# --- gathering one rank's lines ------------------------------------------------------------


def _collect(scans: Sequence[FileScan]) -> dict[int, RankFiles]:
    by_rank: dict[int, RankFiles] = {}
    for scan in scans:
        info = scan.info
        skipped = _number_skipped_occurrences(scan)
        if info.rank is not None:
            files = _rank_files(by_rank, info.rank, scan)
            files.present = files.present or info.lines > 0 or info.size_bytes > 0
        this_scan: dict[int, RankFiles] = {}
        for event in scan.events:
            rank = event.rank if event.rank is not None else info.rank
            if rank is None or _launcher_says(event, info.kind):
                continue
            files = this_scan.get(rank) or this_scan.setdefault(
                rank, _rank_files(by_rank, rank, scan)
            )
            _add_event(files, event)
        for files in this_scan.values():
            files.skipped = max(files.skipped, skipped)
    return by_rank


def _number_skipped_occurrences(scan: FileScan) -> int:
    """Give the tail checkpoints of a file whose middle was only counted their true index."""
    skipped: dict[str, int] = scan.facts.get("checkpoints_skipped") or {}
    if not skipped:
        return 0
    tail_from = scan.facts.get("checkpoint_tail_from") or 0
    seen: Counter[str] = Counter()
    jumped: set[str] = set()
    for event in sorted(scan.events, key=lambda e: e.line):
        if event.kind != EventKind.CHECKPOINT:
            continue
        text = _text(event)
        if event.line >= tail_from and text not in jumped:
            seen[text] += skipped.get(text, 0)
            jumped.add(text)
        event.occurrence = seen[text]
        seen[text] += 1
    return sum(skipped.values())


def _launcher_says(event: Event, kind: FileKind) -> bool:
    return (
        kind == FileKind.LAUNCHER
        and event.source in _LAUNCHER_SOURCES
        and not _RANK_OUTPUT_TAG.match(event.text)
    )


def _rank_files(by_rank: dict[int, RankFiles], rank: int, scan: FileScan) -> RankFiles:
    files = by_rank.setdefault(rank, RankFiles())
    priority = _FILE_PRIORITY.get(scan.info.kind, 1)
    files.priority.setdefault(scan.info.path, (priority, scan.info.path))
    return files


def _add_event(files: RankFiles, event: Event) -> None:
    files.present = True
    if event.kind == EventKind.CHECKPOINT:
        files.checkpoints.setdefault(event.file, []).append(event)
        return
    if event.kind == EventKind.ERROR:
        files.errors.setdefault(event.file, []).append(event)
    if not files.killed_line and is_killed_line(event.message or event.text):
        files.killed_line = True


@lru_cache(maxsize=65536)
def checkpoint_text(message: str) -> str:
    """The comparable text of a checkpoint event's message."""
    return normalise(message)


def _text(event: Event) -> str:
    return checkpoint_text(event.message or event.text)


def _merged_checkpoints(files: RankFiles) -> list[Event]:
    """One rank's checkpoints from all its files, each logical checkpoint once.

    The fullest file of the best kind is the base; another file's checkpoint is the same
    one when its (text, occurrence in that file) matches, else it is inserted after the
    last checkpoint both files share.
    """
    order = sorted(
        files.checkpoints, key=lambda p: (files.priority[p][0], -len(files.checkpoints[p]), p)
    )
    if not order:
        return []
    merged = sorted(files.checkpoints[order[0]], key=lambda e: e.line)
    for path in order[1:]:
        merged = _merge_two(merged, sorted(files.checkpoints[path], key=lambda e: e.line))
    return merged


def _merge_two(base: list[Event], other: list[Event]) -> list[Event]:
    """Checkpoints only `other` has go in before the next checkpoint both files share (at
    the end after the last one); with time on every line, time decides."""
    base_keys = _keys(base)
    known = set(base_keys)
    before: dict[Key, list[Event]] = {}
    pending: list[Event] = []
    for key, event in zip(_keys(other), other, strict=True):
        if key in known:
            if pending:
                before[key], pending = pending, []
        else:
            pending.append(event)
    if not before and not pending:
        return base
    merged: list[Event] = []
    for key, event in zip(base_keys, base, strict=True):
        merged.extend(before.get(key, ()))
        merged.append(event)
    merged.extend(pending)
    if all(e.timestamp for e in merged):
        merged.sort(key=lambda e: epoch(e.timestamp))
    return merged


def _keys(events: Iterable[Event]) -> list[Key]:
    seen: Counter[str] = Counter()
    keys = []
    for event in events:
        text = _text(event)
        index = seen[text] if event.occurrence is None else max(seen[text], event.occurrence)
        keys.append((text, index))
        seen[text] = index + 1
    return keys


def _timeline(events: list[Event]) -> tuple[list[Checkpoint], dict[Key, float]]:
    """The rank's checkpoints, and the time of each one that carries a time.

    Runs once per checkpoint of the job (a million for 512 ranks), hence the plain loop.
    """
    texts = [_text(e) for e in events]
    checkpoints = []
    timed: dict[Key, float] = {}
    seen: dict[str, int] = {}
    for event, text, name in zip(events, texts, qualified_names(texts), strict=True):
        index = seen.get(text, 0)
        if event.occurrence is not None:
            index = max(index, event.occurrence)
        seen[text] = index + 1
        stamp = event.timestamp
        iso = None
        if stamp is not None:
            timed[(text, index)] = epoch(stamp)
            iso = stamp.isoformat()
        # Checkpoint(text, index, file, line, timestamp, qualified)
        checkpoints.append(Checkpoint(text, index, event.file, event.line, iso, name))
    return checkpoints, timed


def _world_size(
    hint: int | None, scans: Sequence[FileScan], by_rank: Mapping[int, Any]
) -> int | None:
    if hint and plausible_rank(hint):
        return hint
    stated = [as_int(scan.facts.get("world_size")) for scan in scans]
    stated += [as_int((scan.facts.get("env") or {}).get("WORLD_SIZE")) for scan in scans]
    sizes = [size for size in stated if size and plausible_rank(size)]
    if sizes:
        return max(sizes)
    return plausible_rank(max(by_rank) + 1) if by_rank else None


# --- job level -----------------------------------------------------------------------------


def last_common(timeline: Mapping[int, Sequence[Checkpoint]]) -> Checkpoint | None:
    """The last checkpoint (by identity) every given rank reached, as the lowest rank
    logged it; None when some rank logged none or they share nothing."""
    if not timeline or not all(timeline.values()):
        return None
    shortest = min(timeline, key=lambda r: (len(timeline[r]), r))
    others = [{(c.text, c.index) for c in cps} for r, cps in timeline.items() if r != shortest]
    for checkpoint in reversed(timeline[shortest]):
        key = (checkpoint.text, checkpoint.index)
        if all(key in keys for keys in others):
            return _as_logged_by(timeline, key, min(timeline))
    return None


def _as_logged_by(timeline: Mapping[int, Sequence[Checkpoint]], key: Key, rank: int) -> Checkpoint:
    return next(c for c in timeline[rank] if (c.text, c.index) == key)


def _ahead_behind(counts: Mapping[int, int]) -> tuple[list[int], list[int]]:
    """Ranks past and short of the pack, the pack being the most common checkpoint count
    (the median when every count differs)."""
    if len(counts) < 2:
        return [], []
    ((mode, repeats),) = Counter(counts.values()).most_common(1)
    pack = mode if repeats > 1 else statistics.median(counts.values())
    ahead = sorted(r for r, n in counts.items() if n > pack)
    behind = sorted(r for r, n in counts.items() if n < pack)
    return ahead, behind


# --- clocks --------------------------------------------------------------------------------


def clock_offsets(events: Mapping[int, Sequence[Event]]) -> dict[int, float]:
    """Seconds each rank's clock runs ahead of the reference rank's (the lowest rank with
    timed checkpoints): the median difference over the checkpoints both logged. Subtract
    a rank's offset from its times to put all ranks on one clock."""
    return _offsets({rank: _timeline(list(evs))[1] for rank, evs in events.items()})


def _offsets(times: Mapping[int, Mapping[Key, float]]) -> dict[int, float]:
    times = {rank: keyed for rank, keyed in times.items() if keyed}
    if not times:
        return {}
    reference = min(times)
    base = times[reference]
    offsets = {reference: 0.0}
    for rank, keyed in times.items():
        shared = [moment - base[key] for key, moment in keyed.items() if key in base]
        if rank != reference and shared:
            offsets[rank] = round(statistics.median(shared), 6)
    return offsets
