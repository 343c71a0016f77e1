"""Rank files whose lines all carry one rank tag that another rank file carries as well.

A launcher writes one file per process it started (`log_2.log`, torchrun's
`attempt_0/2/stdout.log`), and the rank tag a process prints in its lines (`[rank1]`, `[rank 0]`)
is usually the better witness of its global rank: a second node's local files tag their global
ranks. But the tag is only the number the process was handed. When two processes were handed the
same one (a launch script's rank arithmetic that repeats a rank, a script that passes its own
`rank=0` while torchrun starts four copies of it), their files carry one tag between them:

    log_1.log   [rank 1] load weights passed
    log_2.log   [rank 1] load weights passed

Followed, the tag would merge two processes into one rank and leave the other slot empty. A tag
that names one rank in the files of several launcher slots identifies none of them, so each such
file keeps the slot its launcher gave it, and a launcher console's copies of such lines (torchrun's
`--tee`, `[default2]:...[rank0] ...`) are left to the slots' own files. A tag carried by one
slot's files alone (a node's local file with its global rank) is still followed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from analyzers.checkpoints.track import NO_RANK, CheckpointTrack
from analyzers.core.types import FileKind, FileScan


def keep_slots_of_shared_tags(scans: Sequence[FileScan]) -> None:
    """Give the lines of rank files that share one rank tag their own file's rank."""
    slots: dict[int, set[int]] = defaultdict(set)
    tagged: list[tuple[FileScan, int]] = []
    for scan in scans:
        tag = _single_tag(scan)
        if tag is None:
            continue
        slots[tag].add(scan.info.rank)  # type: ignore[arg-type]
        tagged.append((scan, tag))
    shared = {tag for tag, owners in slots.items() if len(owners) > 1}
    for scan, tag in tagged:
        if tag in shared and scan.info.rank != tag:
            _retag(scan, {tag}, scan.info.rank)
    for scan in scans:
        if shared and scan.info.kind == FileKind.LAUNCHER:
            _retag(scan, shared, None)


def _retag(scan: FileScan, tags: set[int], own: int | None) -> None:
    """Lines that name one of `tags` become the file's own (`own`), or nobody's: a launcher's
    `--tee` copy of a line says which rank tag it carried, not which slot wrote it, and the
    slot's own file holds the line."""
    for event in scan.events:
        if event.rank in tags:
            event.rank = own
    track = scan.facts.get("checkpoints")
    if isinstance(track, CheckpointTrack):
        for i, rank in enumerate(track.rank):
            if rank in tags:
                track.set_rank(i, NO_RANK if own is None else own)


def _single_tag(scan: FileScan) -> int | None:
    """The one rank a rank file's checkpoint lines name, when they name exactly one."""
    if scan.info.rank is None or scan.info.kind == FileKind.LAUNCHER:
        return None
    track = scan.facts.get("checkpoints")
    if not isinstance(track, CheckpointTrack) or not len(track):
        return None
    named = set(track.rank) - {NO_RANK}
    return named.pop() if len(named) == 1 else None
