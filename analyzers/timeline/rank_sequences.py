"""Gather each rank's checkpoints from the files that hold them into one `RankSequence`.

A rank's lines may sit in several files (its own log, stderr, the launcher's `[default3]:`
copy); a launcher log holds several ranks. Every checkpoint keeps its place: a rank's
sequence is built from the fullest file of the best kind, and another file adds only the
checkpoints that file lacks (a copy adds nothing: `analyzers.timeline.rank_merge`). A file's
wait, send, step start and group lines are no progress and go to the timeline's own fields
(`analyzers.timeline.marked_lines`). Checkpoint identity is the normalised
text plus its occurrence index on the rank, so "the 3rd `norm passed`" is the same point in
two files of one rank and on two ranks. A restarted job's other attempts are left out
(`analyzers.timeline.attempts`): the last attempt is where the ranks stopped, or the latest
that printed checkpoints when the attempts after it died before any. In a file that several
attempts wrote into (a launcher's console, a log appended by a retry loop) only that attempt's
lines count.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

from analyzers.checkpoints.patterns import classify_text
from analyzers.checkpoints.track import NO_RANK, CheckpointTrack, track_of
from analyzers.core.checkpoint_timeline import RankSequence, Timeline
from analyzers.core.types import FileKind, FileScan
from analyzers.timeline.attempts import stopped_run
from analyzers.timeline.marked_lines import MarkedLines, plain_checkpoints
from analyzers.timeline.rank_merge import RankPart, merged

# A rank's own log is the better citation than the launcher's copy of the same line.
FILE_PRIORITY = {FileKind.RANK_LOG: 0, FileKind.LAUNCHER: 2}


def rank_sequences(scans: Sequence[FileScan]) -> Timeline:
    """Every rank's checkpoints, each once, in its own order (labels are left empty)."""
    timeline = Timeline()
    texts: dict[str, int] = {}
    parts: dict[int, list[RankPart]] = {}
    run = stopped_run(scans)
    for scan in scans:
        track = track_of(scan)
        if track is None or not len(track) or scan.info.path in run.left_out:
            continue
        marked = MarkedLines.of(track)
        # wait, send, step start and group lines are dropped below, so their texts never join
        # the timeline's
        table = [
            0 if marked.dropped(i) else _intern(texts, timeline.texts, text)
            for i, text in enumerate(track.texts)
        ]
        file_id = len(timeline.files)
        timeline.files.append(scan.info.path)
        priority = FILE_PRIORITY.get(scan.info.kind, 1)
        cut = scan.info.path in run.spans
        for rank, picked in _split_by_rank(track, scan.info.rank):
            if cut:
                picked = [i for i in picked if run.keeps(scan.info.path, track.line[i])]
                if not picked:
                    continue
            picked = plain_checkpoints(timeline, rank, picked, marked, file_id)
            if picked is not None:
                seq = _sequence(track, table, file_id, picked)
                parts.setdefault(rank, []).append(RankPart(priority, scan.info.path, seq))
    for rank in sorted(parts):
        timeline.ranks[rank] = merged(parts[rank])
    _drop_unshared(timeline)
    return timeline


def _drop_unshared(timeline: Timeline) -> None:
    """Lines of a kind many jobs print on one rank only (`ckpt saved @ step 40`: rank 0 saves,
    the others go on) are no checkpoint when one rank alone prints them among ranks that print
    progress: that rank would look ahead of its peers by its own extra lines. Printed by more
    ranks, they are the job's own progress (a rank that stopped before the first save simply
    has none)."""
    shared = {
        i for i, text in enumerate(timeline.texts) if (hit := classify_text(text)) and hit.shared
    }
    if not shared or len(timeline.ranks) < 2:
        return
    printing = [rank for rank, seq in timeline.ranks.items() if shared & set(seq.text)]
    if len(printing) != 1:
        return
    for rank in printing:
        seq = timeline.ranks[rank]
        keep = [i for i, text in enumerate(seq.text) if text not in shared]
        timeline.ranks[rank] = RankSequence(
            array(seq.text.typecode, (seq.text[i] for i in keep)),
            array(seq.label.typecode, (seq.label[i] for i in keep if i < len(seq.label))),
            array(seq.file.typecode, (seq.file[i] for i in keep)),
            array(seq.line.typecode, (seq.line[i] for i in keep)),
            array(seq.time.typecode, (seq.time[i] for i in keep)),
        )


def _intern(ids: dict[str, int], texts: list[str], text: str) -> int:
    found = ids.get(text)
    if found is None:
        found = ids[text] = len(texts)
        texts.append(text)
    return found


def _split_by_rank(
    track: CheckpointTrack, file_rank: int | None
) -> Iterable[tuple[int, Sequence[int]]]:
    """A rank log is one rank (the common case, done in bulk); a launcher log is split."""
    named = set(track.rank)
    if named <= {NO_RANK, file_rank}:
        if file_rank is None:
            return []
        return [(file_rank, range(len(track)))]
    indices: dict[int, list[int]] = {}
    for index, rank in enumerate(track.rank):
        owner = file_rank if rank == NO_RANK else rank
        if owner is not None:
            indices.setdefault(owner, []).append(index)
    return list(indices.items())


def _sequence(
    track: CheckpointTrack, table: list[int], file_id: int, picked: Sequence[int]
) -> RankSequence:
    whole = len(picked) == len(track)
    text = track.text if whole else array("I", (track.text[i] for i in picked))
    return RankSequence(
        text=array("I", text) if _is_identity(table) else array("I", map(table.__getitem__, text)),
        file=array(_narrowest(file_id), [file_id]) * len(picked),
        # a whole file's columns are shared with its track, not copied: neither changes now
        line=track.line if whole else array(track.line.typecode, (track.line[i] for i in picked)),
        time=track.time if whole else array("d", (track.time[i] for i in picked)),
    )


def _narrowest(value: int) -> str:
    """The smallest unsigned array type holding `value`: a file's column repeats one file id
    for every checkpoint it gave the rank, millions of entries in a large bundle, and is only
    read (iterated, counted, listed), never appended to, so its width costs memory for nothing."""
    return "B" if value < 0x100 else "H" if value < 0x10000 else "I"


def _is_identity(table: list[int]) -> bool:
    """Whether a file's text ids are already the timeline's (every rank of a job prints its
    checkpoints in one order, so each file after the first usually agrees): the column is
    then copied whole instead of mapped an id at a time."""
    return table == list(range(len(table)))
