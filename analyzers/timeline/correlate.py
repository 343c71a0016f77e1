"""Compare the ranks' checkpoint sequences: who stopped where, who went its own way.

Every checkpoint of every rank takes part (`analyzers.timeline.rank_sequences` gathers them from the
files). A checkpoint's identity is its normalised text plus its occurrence index on that
rank (the 3rd `norm passed` of rank 0 and the 3rd of rank 5 are the same logical point),
so ranks are compared without trusting their clocks. Where lines carry time, per-rank
clock offsets are estimated from the shared checkpoints.
"""

from __future__ import annotations

import re
import statistics
from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from analyzers.checkpoints.layer_qualification import SequenceQualifier
from analyzers.checkpoints.patterns import is_killed_line, launcher_end
from analyzers.core.checkpoint_timeline import Checkpoint, Opening, RankSequence, Timeline
from analyzers.core.limits import plausible_rank
from analyzers.core.types import (
    Correlation,
    Event,
    EventKind,
    FileInfo,
    FileKind,
    FileScan,
    RankLogs,
)
from analyzers.formats.outer_prefix import AGENT_ROLE, AGENT_TAG_LITERALS, match_behind
from analyzers.ingest.layout import logical_path, rotation_of
from analyzers.timeline.divergence import divergence, microbatch_stages
from analyzers.timeline.rank_logs import rank_logs
from analyzers.timeline.rank_sequences import FILE_PRIORITY, rank_sequences
from analyzers.timeline.rank_status import RankFiles, as_int, elastic_exits, rank_summary
from analyzers.timeline.sequence_facts import clock_offsets, last_common
from analyzers.timeline.worker_sequences import unranked_workers_common

# In a launcher log, lines the agent writes itself (glog lines, the ChildFailedError summary)
# report on a rank; its exit is read from facts["elastic_failures"], and these lines are
# neither the rank's output nor its first error. Copies of a rank's output carry a tag.
# `srun --label`'s task number (`3: `) is no such tag: it stands before every line of the
# task, the agent's own included, and a rank's tag after it is found behind it like behind
# any collector's prefix.
_LAUNCHER_SOURCES = frozenset({"elastic", "glog"})
_RANK_OUTPUT_TAG = re.compile(
    r"\s*(?:\[" + AGENT_ROLE + r"\d+\]:|\[rank\d+\]:|\[\d+,\d+\]<std(?:out|err)>:)"
)
# what a tag starts with, for finding it behind a collector's prefix (`formats.outer_prefix`)
_RANK_OUTPUT_LITERALS = AGENT_TAG_LITERALS  # the bracket of both tags


def correlate(scans: Sequence[FileScan], world_size_hint: int | None) -> Correlation:
    """Per-rank timelines and statuses plus the job-level comparison of the ranks."""
    by_rank = _collect(scans)
    timeline = rank_sequences(scans)
    for rank in timeline.ranks:
        by_rank.setdefault(rank, RankFiles()).present = True
    world_size = _world_size(world_size_hint, scans, by_rank)
    ranks = sorted(set(range(world_size or 0)) | set(by_rank))
    missing = [r for r in ranks if r not in by_rank or not by_rank[r].present]
    # a stated world of tens of thousands with few logs is all missing ranks: look them up in
    # a set, or each of these passes is quadratic in the world size
    gone = set(missing)
    timeline.ranks = {r: seq for r, seq in timeline.ranks.items() if r not in gone}
    qualify(timeline)
    exits = elastic_exits(scans)
    summaries = [rank_summary(r, by_rank.get(r), timeline, r in gone, exits.get(r)) for r in ranks]
    present = [r for r in ranks if r not in gone]
    last, logs = _last_common(timeline, scans, present, rank_logs(scans, missing), world_size)
    counts = {s.rank: s.checkpoints for s in summaries if s.rank in present}
    # pipeline stages are microbatches apart by design; their counts form no pack
    ahead, behind = ([], []) if microbatch_stages(timeline) else _ahead_behind(counts)
    split = divergence(timeline)
    return Correlation(
        ranks=summaries,
        timeline=timeline,
        world_size=world_size,
        last_common=last,
        ahead_ranks=ahead,
        behind_ranks=behind,
        missing_ranks=missing,
        divergent_ranks=split.ranks,
        divergence=split.sentence,
        divergence_zh=split.sentence_zh,
        divergence_at=_divergence_at(timeline, split) if split.rank is not None else None,
        clock_offsets=clock_offsets(timeline),
        waiting_on={r: p for r, p in timeline.waits.items() if r not in gone},
        sending_to={r: p for r, p in timeline.sends.items() if r not in gone},
        sent_alone={r: p for r, p in timeline.lone_sends.items() if r not in gone},
        rank_logs=logs,
    )


def _last_common(
    timeline: Timeline,
    scans: Sequence[FileScan],
    present: list[int],
    logs: RankLogs,
    world_size: int | None,
) -> tuple[Checkpoint | None, RankLogs]:
    """The last checkpoint every rank is known to have reached. A rank whose own log is empty
    reached none, as a log without checkpoint lines shows; a rank with no log at all may have
    got anywhere, so then no checkpoint is known common to all ranks
    (docs/labelling.md#a-rank-whose-log-is-not-in-the-bundle). Workers whose ranks are unknown
    but number the world are every rank's output, unranked: their common checkpoint stands,
    and no rank lacks a log."""
    common = None if logs.logless else last_common(timeline, present + list(logs.empty))
    if common is not None:
        return timeline.checkpoint(*common), logs
    if timeline.ranks:
        return None, logs
    workers = unranked_workers_common(scans, world_size)
    return workers, logs if workers is None else replace(logs, logless=())


def qualify(timeline: Timeline) -> None:
    """Give every entry its layer-qualified label. Ranks mostly log the same sequence (or a
    prefix of a longer one), so each distinct sequence is qualified once."""
    qualifier = SequenceQualifier(timeline.texts)
    qualifier.learn(seq.text for seq in timeline.ranks.values())
    done: list[tuple[bytes, dict[int, Opening], Any]] = []
    for rank in sorted(timeline.ranks, key=lambda r: -len(timeline.ranks[r])):
        seq = timeline.ranks[rank]
        raw = seq.text.tobytes()
        opens = _step_opens(timeline, seq)
        reuse = next(
            (
                labels
                for whole, its_opens, labels in done
                if whole.startswith(raw)
                and {i: s for i, s in its_opens.items() if i < len(seq)} == opens
            ),
            None,
        )
        if reuse is not None:
            seq.label = reuse[: len(seq)]
            continue
        seq.label = array("I", qualifier.qualify(seq.text, opens))
        if len(done) < 8:
            done.append((raw, opens, seq.label))
    timeline.labels = qualifier.labels


def _step_opens(timeline: Timeline, seq: RankSequence) -> dict[int, Opening]:
    """Position in the rank's sequence -> what a start line just before it opened."""
    if not timeline.step_opens:
        return {}
    found = (
        (i, timeline.step_opens.get((file, int(line))))
        for i, (file, line) in enumerate(zip(seq.file, seq.line, strict=True))
    )
    return {i: step for i, step in found if step is not None}


def _divergence_at(timeline: Timeline, split: Any) -> dict[str, Any]:
    point: Checkpoint = timeline.checkpoint(split.rank, split.position)
    return {
        "rank": split.rank,
        "position": split.position + 1,
        "checkpoint": point.text,
        "qualified": point.qualified,
        "file": point.file,
        "line": point.line,
    }


# --- gathering one rank's lines ------------------------------------------------------------


def _collect(scans: Sequence[FileScan]) -> dict[int, RankFiles]:
    """Each rank's files and error lines (its checkpoints are in `rank_sequences`)."""
    by_rank: dict[int, RankFiles] = {}
    for scan in scans:
        info = scan.info
        if info.rank is not None:
            files = _rank_files(by_rank, info.rank, scan)
            files.present = files.present or info.lines > 0 or info.size_bytes > 0
        track = scan.facts.get("checkpoints")
        writers = _track_ranks(track, info.rank)
        for rank in writers:
            _rank_files(by_rank, rank, scan).present = True
        cut_at = scan.facts.get("ends_mid_line")
        owner = info.rank if info.rank is not None else next(iter(writers), None)
        if cut_at and owner is not None and (info.rank is not None or len(writers) == 1):
            _note_cut(_rank_files(by_rank, owner, scan), info.path, cut_at)
        # a launcher's copy of a child's start line stating its rank: that rank ran and wrote
        # output, even when it printed no checkpoint and no error before it was stopped
        for rank in (scan.facts.get("local_named_ranks") or {}).values():
            _rank_files(by_rank, rank, scan).present = True
        # a console the ranks share: torch's `[rankN]:` tag on a line shows that rank wrote it,
        # a warning with no error and no checkpoint included
        for rank in scan.facts.get("tagged_ranks") or ():
            _rank_files(by_rank, rank, scan).present = True
        for event in scan.events:
            rank = event.rank if event.rank is not None else info.rank
            if rank is None or _launcher_says(event, info):
                continue
            _add_event(_rank_files(by_rank, rank, scan), event)
    return by_rank


def _note_cut(files: RankFiles, path: str, line: int) -> None:
    if not _older_segment(path):
        files.cut[path] = line


def _older_segment(path: str) -> bool:
    """A rotated log's older segment ends where the rotation cut it (logrotate's `copytruncate`
    may cut mid-line while the process writes on into the live file): the rank did not stop
    there, so a missing line end is no sign of a cut log."""
    return rotation_of(logical_path(path)) is not None


def _track_ranks(track: Any, file_rank: int | None) -> set[int]:
    if track is None or not len(track):
        return set()
    ranks = track.ranks()
    if file_rank is not None and len(ranks) < len(track):
        ranks.add(file_rank)
    return ranks


def _launcher_says(event: Event, info: FileInfo) -> bool:
    """The agent's own line about a rank: in a launcher's file, and in a node's combined
    `--tee` console under any name (a file naming no rank, whose ranks' lines carry their
    `[defaultN]:` tags while the agent's do not)."""
    return (
        (info.kind == FileKind.LAUNCHER or (info.rank is None and event.source == "elastic"))
        and event.source in _LAUNCHER_SOURCES
        and not match_behind(_RANK_OUTPUT_TAG, event.text, _RANK_OUTPUT_LITERALS)
    )


def _rank_files(by_rank: dict[int, RankFiles], rank: int, scan: FileScan) -> RankFiles:
    files = by_rank.setdefault(rank, RankFiles())
    priority = FILE_PRIORITY.get(scan.info.kind, 1)
    files.priority.setdefault(scan.info.path, (priority, scan.info.path))
    return files


def _add_event(files: RankFiles, event: Event) -> None:
    files.present = True
    if event.kind == EventKind.CHECKPOINT:
        return
    if event.kind == EventKind.ERROR and not _ended_cleanly(event):
        files.errors.setdefault(event.file, []).append(event)
    if not files.killed_line and is_killed_line(event.message or event.text):
        files.killed_line = True


def _ended_cleanly(event: Event) -> bool:
    """A launcher's line that the rank's process exited with status 0 (`rank 0 (pid 4449)
    exited with code 0`): read as an error line for its exit words, it records a clean end,
    and a rank that left its peers so is no rank that failed."""
    end = launcher_end(event.message or event.text)
    return end is not None and end.exitcode == 0 and end.signal is None


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


def _ahead_behind(counts: Mapping[int, int]) -> tuple[list[int], list[int]]:
    """Ranks past and short of the pack, the pack being the most common checkpoint count
    (the median when every count differs)."""
    if len(counts) < 2:
        return [], []
    ((mode, repeats),) = Counter(counts.values()).most_common(1)
    pack = mode if repeats > 1 else statistics.median(counts.values())
    if pack == 0:
        # most ranks print no progress at all (a logger that writes on rank 0 only): the few
        # that do are not ahead of ranks whose progress is simply not in the logs
        return [], []
    ahead = sorted(r for r, n in counts.items() if n > pack)
    behind = sorted(r for r, n in counts.items() if n < pack)
    return ahead, behind
