"""Gather each rank's checkpoints from the files that hold them into one `RankSequence`.

A rank's lines may sit in several files (its own log, stderr, the launcher's `[default3]:`
copy); a launcher log holds several ranks. Every checkpoint keeps its place: a rank's
sequence is built from the fullest file of the best kind, and another file adds only the
checkpoints that file lacks (a copy adds nothing). Checkpoint identity is the normalised
text plus its occurrence index on the rank, so "the 3rd `norm passed`" is the same point in
two files of one rank and on two ranks. A restarted job's other attempts are left out
(`analyzers.timeline.attempts`): the last attempt is where the ranks stopped, or the latest
that printed checkpoints when the attempts after it died before any. In a file that several
attempts wrote into (a launcher's console, a log appended by a retry loop) only that attempt's
lines count.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from analyzers.checkpoints.patterns import (
    classify_text,
    group_members,
    lone_send_peer,
    opened,
    sent_peer,
    waited_peer,
)
from analyzers.checkpoints.track import NO_RANK, CheckpointTrack, track_of
from analyzers.core.checkpoint_timeline import Opening, RankSequence, Timeline
from analyzers.core.types import FileKind, FileScan
from analyzers.ingest.layout import LIVE_AGE, logical_path, rotation_of
from analyzers.timeline.attempts import stopped_run

# A rank's own log is the better citation than the launcher's copy of the same line.
FILE_PRIORITY = {FileKind.RANK_LOG: 0, FileKind.LAUNCHER: 2}


@dataclass(slots=True)
class _Part:
    """The checkpoints of one rank found in one file."""

    priority: int
    path: str
    seq: RankSequence


def rank_sequences(scans: Sequence[FileScan]) -> Timeline:
    """Every rank's checkpoints, each once, in its own order (labels are left empty)."""
    timeline = Timeline()
    texts: dict[str, int] = {}
    parts: dict[int, list[_Part]] = {}
    run = stopped_run(scans)
    for scan in scans:
        track = track_of(scan)
        if track is None or not len(track) or scan.info.path in run.left_out:
            continue
        marked = _MarkedLines.of(track)
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
            picked = _plain_checkpoints(timeline, rank, picked, marked, file_id)
            if picked is not None:
                seq = _sequence(track, table, file_id, picked)
                parts.setdefault(rank, []).append(_Part(priority, scan.info.path, seq))
    for rank in sorted(parts):
        timeline.ranks[rank] = _merged(parts[rank])
    _drop_unshared(timeline)
    return timeline


@dataclass(slots=True)
class _MarkedLines:
    """A file's checkpoint texts that say more than progress, by local text id: waits and the
    peers they name, exchanges' sends, lone hand-off sends, step starts, group lists."""

    track: CheckpointTrack
    peers: dict[int, int]
    sends: dict[int, int]
    outs: dict[int, int]
    opens: dict[int, Opening]
    groups: dict[int, tuple[int, ...]]

    @classmethod
    def of(cls, track: CheckpointTrack) -> _MarkedLines:
        peers = _wait_peers(track)
        return cls(
            track=track,
            peers=peers,
            sends=_send_peers(track, peers),
            outs=_lone_send_peers(track),
            opens=_step_opens(track),
            groups=_group_lists(track),
        )

    def dropped(self, text_id: int) -> bool:
        return (
            text_id in self.peers
            or text_id in self.outs
            or text_id in self.opens
            or text_id in self.groups
        )


def _plain_checkpoints(
    timeline: Timeline, rank: int, picked: Sequence[int], marked: _MarkedLines, file_id: int
) -> Sequence[int] | None:
    """A rank's entries without the marked lines, which go to the timeline's own fields
    (groups, waits, sends, step starts); None when nothing else is left."""
    track = marked.track
    if marked.groups:
        built = [marked.groups[track.text[i]] for i in picked if track.text[i] in marked.groups]
        if built and len(built) > len(timeline.groups.get(rank, ())):
            timeline.groups[rank] = built  # the fullest file of the rank says it
        picked = [i for i in picked if track.text[i] not in marked.groups]
        if not picked:
            return None
    if marked.peers or marked.outs:
        last = track.text[picked[-1]] if len(picked) else None
        sent = _last_lone_send(track, picked, marked.peers, marked.outs)
        picked, pending = _without_waits(track, picked, marked.peers, marked.outs)
        if pending is not None:
            timeline.waits[rank] = pending
            if last in marked.sends:  # an exchange: the peer it sends to, beside its wait
                timeline.sends[rank] = marked.sends[last]
        if sent is not None:
            timeline.lone_sends[rank] = sent
        if not picked:
            return None
    if marked.opens:
        picked = _without_step_starts(track, picked, marked.opens, file_id, timeline.step_opens)
        if not picked:
            return None
    return picked


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


def _wait_peers(track: CheckpointTrack) -> dict[int, int]:
    """Local text id -> the peer it names, for the file's wait lines (`waiting for rank 3`)."""
    found = {i: waited_peer(text) for i, text in enumerate(track.texts)}
    return {i: peer for i, peer in found.items() if peer is not None}


def _send_peers(track: CheckpointTrack, peers: dict[int, int]) -> dict[int, int]:
    """Local text id -> the peer an exchange's wait line says it sends to."""
    found = {i: sent_peer(track.texts[i]) for i in peers}
    return {i: peer for i, peer in found.items() if peer is not None}


def _group_lists(track: CheckpointTrack) -> dict[int, tuple[int, ...]]:
    """Local text id -> the ranks a group line names (`creating group [0, 1]`)."""
    found = {i: group_members(text) for i, text in enumerate(track.texts)}
    return {i: ranks for i, ranks in found.items() if ranks is not None}


def _lone_send_peers(track: CheckpointTrack) -> dict[int, int]:
    """Local text id -> the peer a hand-off's send line names on its own (`send hidden to rank
    2`)."""
    found = {i: lone_send_peer(text) for i, text in enumerate(track.texts)}
    return {i: peer for i, peer in found.items() if peer is not None}


def _last_lone_send(
    track: CheckpointTrack, picked: Sequence[int], peers: dict[int, int], outs: dict[int, int]
) -> int | None:
    """The peer of the rank's latest send line among the wait and send lines it printed after
    its last checkpoint, else None."""
    for i in reversed(picked):
        text = track.text[i]
        if text in outs:
            return outs[text]
        if text not in peers:
            return None
    return None


def _without_waits(
    track: CheckpointTrack,
    picked: Sequence[int],
    peers: dict[int, int],
    outs: dict[int, int] | None = None,
) -> tuple[list[int], int | None]:
    """The rank's checkpoints without its wait and send lines, and the peer its last progress
    line waits for when that line is a wait (nothing came after it: the rank is still
    waiting). A send line after a wait says the receive returned."""
    outs = outs or {}
    kept = [i for i in picked if track.text[i] not in peers and track.text[i] not in outs]
    pending = peers.get(track.text[picked[-1]]) if len(picked) else None
    return kept, pending


def _step_opens(track: CheckpointTrack) -> dict[int, Opening]:
    """Local text id -> what it opens, for the file's start lines (`step 3 start`, `request 2
    / prefill start`)."""
    found = {i: opened(text) for i, text in enumerate(track.texts)}
    return {i: opening for i, opening in found.items() if opening is not None}


def _without_step_starts(
    track: CheckpointTrack,
    picked: Sequence[int],
    opens: dict[int, Opening],
    file_id: int,
    step_opens: dict[tuple[int, int], Opening],
) -> list[int]:
    """The rank's checkpoints without its start lines; the checkpoint that comes first after
    one is noted in `step_opens` with what the line opened, so the lines of a step no line has
    closed yet (or of a request that has not passed a phase) are still read in it."""
    kept: list[int] = []
    pending: Opening | None = None
    for i in picked:
        step = opens.get(track.text[i])
        if step is not None:
            pending = step
            continue
        if pending is not None:
            step_opens[(file_id, int(track.line[i]))] = pending
            pending = None
        kept.append(i)
    return kept


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


# --- one rank from several files ----------------------------------------------------------


def _merged(parts: list[_Part]) -> RankSequence:
    parts = sorted(_joined_rotations(parts), key=lambda p: (p.priority, -len(p.seq), p.path))
    merged = parts[0].seq
    for part in parts[1:]:
        if _adds_something(merged, part.seq):
            merged = _merge_two(merged, part.seq)
    return merged


def _joined_rotations(parts: list[_Part]) -> list[_Part]:
    """A rotated log (`log_3.log.2`, `log_3.log.1`, `log_3.log`; or dated, `log_3.log-20261204`,
    `log_3.log-20261205`, `log_3.log`) is one stream cut into files. Its segments are joined
    oldest first (`analyzers.ingest.layout.rotation_of` says which is older): a later segment
    repeats the earlier ones' checkpoint texts (every step prints `norm passed` again) without
    being a copy of them."""
    groups: dict[str, list[tuple[tuple[int, int], _Part]]] = {}
    for part in parts:
        name = logical_path(part.path)  # `log_3.log.gz` is the live `log_3.log`, gzipped
        found = rotation_of(name)
        base, age = (found.live, found.age) if found else (name, LIVE_AGE)
        groups.setdefault(base, []).append((age, part))
    joined = []
    for base, members in groups.items():
        if len(members) < 2 or all(age == LIVE_AGE for age, _ in members):
            joined.extend(part for _, part in members)
            continue
        members.sort(key=lambda member: member[0])
        priority = min(part.priority for _, part in members)  # `.1` is no known log suffix
        joined.append(_Part(priority, base, _concatenated([part.seq for _, part in members])))
    return joined


def _concatenated(seqs: list[RankSequence]) -> RankSequence:
    return RankSequence(
        text=array("I", (t for seq in seqs for t in seq.text)),
        file=array("I", (f for seq in seqs for f in seq.file)),
        line=array("Q", (n for seq in seqs for n in seq.line)),
        time=array("d", (t for seq in seqs for t in seq.time)),
    )


def _adds_something(base: RankSequence, other: RankSequence) -> bool:
    """Whether `other` holds an occurrence `base` lacks (a copy of the same lines does not)."""
    have = Counter(base.text)
    return any(count > have[text] for text, count in Counter(other.text).items())


Row = tuple[int, int, int, float]  # text, file, line, time


def _merge_two(base: RankSequence, other: RankSequence) -> RankSequence:
    """Checkpoints only `other` has go in before the next checkpoint both share (at the end
    after the last one); with a time on every line, time decides."""
    base_rows, other_rows = _rows(base), _rows(other)
    have = Counter(base.text)
    before: dict[tuple[int, int], list[Row]] = {}
    pending: list[Row] = []
    for key, row in zip(_keys(other.text), other_rows, strict=True):
        if key[1] < have[key[0]]:
            if pending:
                before[key], pending = pending, []
        else:
            pending.append(row)
    rows: list[Row] = []
    for key, row in zip(_keys(base.text), base_rows, strict=True):
        rows.extend(before.get(key, ()))
        rows.append(row)
    rows.extend(pending)
    if all(row[3] == row[3] for row in rows):
        rows.sort(key=lambda row: row[3])
    return RankSequence(
        text=array("I", (r[0] for r in rows)),
        file=array("I", (r[1] for r in rows)),
        line=array("Q", (r[2] for r in rows)),
        time=array("d", (r[3] for r in rows)),
    )


def _rows(seq: RankSequence) -> list[Row]:
    return list(zip(seq.text, seq.file, seq.line, seq.time, strict=True))


def _keys(texts: Iterable[int]) -> list[tuple[int, int]]:
    seen: Counter[int] = Counter()
    keys = []
    for text in texts:
        keys.append((text, seen[text]))
        seen[text] += 1
    return keys
