"""A file's checkpoint lines that say more than progress, taken out of a rank's checkpoints.

    [rank1]: layer 3 / waiting for rank 0          (a wait, and the peer it names)
    [rank1]: send hidden to rank 2                 (a hand-off's lone send)
    [rank0]: step 3 start                          (a step's start)
    [rank0]: creating group [0, 1]                 (a group's members)

Such lines are printed among a rank's checkpoints but are no progress of their own: they go
to the timeline's own fields instead (`Timeline.waits`, `sends`, `lone_sends`, `step_opens`,
`groups`), read once per file by local text id (`MarkedLines`), and `plain_checkpoints`
leaves a rank's progress lines alone in its sequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analyzers.checkpoints.patterns import (
    group_members,
    lone_send_peer,
    opened,
    sent_peer,
    waited_peer,
)
from analyzers.checkpoints.track import CheckpointTrack
from analyzers.core.checkpoint_timeline import Opening, Timeline


@dataclass(slots=True)
class MarkedLines:
    """A file's checkpoint texts that say more than progress, by local text id: waits and the
    peers they name, exchanges' sends, lone hand-off sends, step starts, group lists."""

    track: CheckpointTrack
    peers: dict[int, int]
    sends: dict[int, int]
    outs: dict[int, int]
    opens: dict[int, Opening]
    groups: dict[int, tuple[int, ...]]

    @classmethod
    def of(cls, track: CheckpointTrack) -> MarkedLines:
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


def plain_checkpoints(
    timeline: Timeline, rank: int, picked: Sequence[int], marked: MarkedLines, file_id: int
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
