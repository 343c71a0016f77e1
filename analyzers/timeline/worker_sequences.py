"""The last checkpoint every worker reached, when the workers' ranks are unknown.

Serving workers tagged by pid alone (`(Worker pid=4410)`) that never state their rank leave
their checkpoints without a rank, so no rank's sequence exists. Each tag is still one process,
though, and the last checkpoint all of them reached is a fact of the job that needs no rank:
it is read here over one sequence per tag. It is given only when every worker logged a
checkpoint (every worker tag seen in the bundle, and as many tags as the world has ranks where
the world size is known), and it never names a rank.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from analyzers.checkpoints.layer_qualification import SequenceQualifier
from analyzers.checkpoints.patterns import opened
from analyzers.checkpoints.track import NO_RANK, track_of
from analyzers.core.checkpoint_timeline import Checkpoint, RankSequence, Timeline
from analyzers.core.types import FileScan
from analyzers.formats.worker_tags import parse_tag
from analyzers.timeline.sequence_facts import last_common

MIN_WORKERS = 2


def unranked_workers_common(scans: Sequence[FileScan], world_size: int | None) -> Checkpoint | None:
    timeline, logged = _worker_timeline(scans)
    workers = len(timeline.ranks)
    if workers < MIN_WORKERS or (world_size is not None and workers != world_size):
        return None
    if not _worker_tags(scans) <= logged:  # a worker that logged no checkpoint
        return None
    qualifier = SequenceQualifier(timeline.texts)
    qualifier.learn(seq.text for seq in timeline.ranks.values())
    for seq in timeline.ranks.values():
        seq.label = array("I", qualifier.qualify(seq.text))
    timeline.labels = qualifier.labels
    common = last_common(timeline, sorted(timeline.ranks))
    return timeline.checkpoint(*common) if common else None


def _worker_tags(scans: Sequence[FileScan]) -> set[str]:
    """Every tag of a ranked framework's worker that the bundle shows."""
    tags: set[str] = set()
    for scan in scans:
        tags.update((scan.facts.get("worker_tags") or {}).get("tags") or ())
        tags.update(event.worker for event in scan.events if event.worker is not None)
    return {tag for tag in tags if (framework := parse_tag(tag)[0]) and framework.ranked}


def _worker_timeline(scans: Sequence[FileScan]) -> tuple[Timeline, set[str]]:
    """One sequence per (file, worker tag) of the checkpoints that carry no rank; empty when
    any checkpoint has a rank or no file tags its checkpoints."""
    timeline = Timeline()
    ids: dict[str, int] = {}
    picked: dict[tuple[str, str], list[tuple[int, int, float, int]]] = {}
    for scan in scans:
        track = track_of(scan)
        if track is None or not len(track):
            continue
        if scan.info.rank is not None or any(rank != NO_RANK for rank in track.rank):
            return Timeline(), set()
        if not track.workers:
            continue
        file_id = len(timeline.files)
        timeline.files.append(scan.info.path)
        for index, worker in enumerate(track.worker):
            if worker == NO_RANK:
                continue
            text = track.texts[track.text[index]]
            if opened(text) is not None:  # a start line is never a checkpoint
                continue
            if text not in ids:
                ids[text] = len(timeline.texts)
                timeline.texts.append(text)
            entry = (ids[text], int(track.line[index]), float(track.time[index]), file_id)
            picked.setdefault((scan.info.path, track.workers[worker]), []).append(entry)
    for number, key in enumerate(sorted(picked)):
        entries = picked[key]
        timeline.ranks[number] = RankSequence(
            text=array("I", (e[0] for e in entries)),
            file=array("I", (e[3] for e in entries)),
            line=array("Q", (e[1] for e in entries)),
            time=array("d", (e[2] for e in entries)),
        )
    return timeline, {tag for _, tag in picked}
