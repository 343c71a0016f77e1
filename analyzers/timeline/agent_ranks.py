"""Turn the local ranks of a second launcher agent's files into global ranks.

torchrun numbers its `--log-dir` tree per agent, so with two nodes both write
`attempt_0/0/stdout.log`, and both launchers tag copied lines `[default0]:`:

    node0/torchrun_logs/job_a1/attempt_0/2/stderr.log   2026-12-03 16:55:59,023 [rank6] ERROR ...
    node1/launcher.log                                  [default1]:[rank3]: RuntimeError: ...

Which agent got which global ranks is decided at rendezvous (a c10d rendezvous ignores
`--node_rank`), so neither the directory nor the node's name can be trusted. What the ranks
themselves print can: torch's `[rankN]:` prefixes and the rank a job logs at start (in a
node's combined `--tee` stdout, the first line under each `[defaultN]:` that states it). One
agent's ranks are one contiguous block, so one offset per agent tree (and per launcher log)
maps its local numbers to global ones. The offset is used only when every file of the tree
that names a rank agrees on it; otherwise the directory numbers stay, as before.

When no file of a node's tree names a global rank (`[local_rank1] norm passed`, bare prints
and no traceback), two nodes' trees would fall onto the same numbers and merge two processes
into one rank. Trees in different node folders (`node0/torchrun_logs/<id>/`,
`node1/torchrun_logs/<id>/`: their folders differ above the run's own folder) are then
stacked as contiguous blocks in the folders' natural order, beside the blocks the named trees
hold. Two runs' trees under one node's log dir are not two nodes and are left alone.

A console that merges several hosts' agents behind pdsh's labels had each host's local ranks
placed as it was scanned (`formats.agent_nodes`) and is left as it is.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from analyzers.checkpoints.track import NO_RANK, CheckpointTrack
from analyzers.core.types import FileKind, FileScan
from analyzers.formats.hints import AGENT_OFFSETS
from analyzers.formats.outer_prefix import AGENT_ROLE, AGENT_TAG_LITERALS, match_behind
from analyzers.formats.worker_tags import SRUN_FRAMEWORK
from analyzers.ingest.layout import agent_local_rank, folder_prefix, node_local_rank

# A launcher's copy of a rank's line: `[default1]:` (local) and, where torch added it,
# `[rank3]:` (global) right after it.
_LOCAL_TAG = re.compile(r"\s*\[" + AGENT_ROLE + r"(\d+)\]:\s?(?:\[rank(\d+)\]:)?")

# The fact a launcher's file keeps its agent's first global rank under, for the lines that
# name a child by its local number alone (`failed (exitcode: -9) local_rank: 0`).
AGENT_OFFSET = "agent_rank_offset"


def _local_tag(text: str) -> re.Match[str] | None:
    """The launcher's local tag at the line's start, or right after a collector's prefix
    (`formats.outer_prefix`) that stands in front of every line of the file."""
    return match_behind(_LOCAL_TAG, text, AGENT_TAG_LITERALS)


def place_agent_ranks(scans: Sequence[FileScan]) -> None:
    """Give files and lines of every agent whose ranks do not start at 0 their global ranks."""
    offsets: dict[str, int] = {}
    trees = _agent_trees(scans)
    stacked = _stacked_offsets(trees)
    for agent, members in [*trees.items(), *_node_files(scans, trees).items()]:
        offset = _one_offset(_named(scan, local) for scan, local in members)
        if offset is None:
            offset = stacked.get(agent) or None
        if offset is None:
            continue
        offsets[agent] = offset
        for scan, local in members:
            _move_file(scan, local, local + offset)
    for scan in scans:
        if scan.facts.get(AGENT_OFFSETS):
            continue  # several hosts' agents, each placed by its host's offset in the scan
        if scan.info.kind == FileKind.LAUNCHER:
            offset = _launcher_offset(scan, offsets)
        elif scan.info.rank is None:
            if _move_labelled_agents(scan):
                continue
            # a node's combined `--tee` stdout under any name (`node-1.out`): only its own
            # doubly tagged lines can say which agent wrote it
            offset = _one_offset(_tag_offsets(scan))
        else:
            continue
        if offset:
            if scan.info.kind == FileKind.LAUNCHER:
                scan.facts[AGENT_OFFSET] = offset
            _move_launcher_copies(scan, offset)


def _agent_trees(scans: Sequence[FileScan]) -> dict[str, list[tuple[FileScan, int]]]:
    trees: dict[str, list[tuple[FileScan, int]]] = defaultdict(list)
    for scan in scans:
        found = agent_local_rank(scan.info.path)
        if found is not None and scan.info.rank == found[1]:
            trees[found[0]].append((scan, found[1]))
    return trees


def _node_files(
    scans: Sequence[FileScan], trees: dict[str, list[tuple[FileScan, int]]]
) -> dict[str, list[tuple[FileScan, int]]]:
    """Files a per-host launch script wrote in its node's folder, numbered by a rank that may
    be local to the node (`node1/log_0.log`), grouped by node folder. They move only by what
    every one of them that states a rank agrees on, never by stacking: a job that numbers them
    globally already (`node1/log_4.log`) says rank 4 and keeps it."""
    inside = {scan.info.path for members in trees.values() for scan, _ in members}
    nodes: dict[str, list[tuple[FileScan, int]]] = defaultdict(list)
    for scan in scans:
        found = node_local_rank(scan.info.path)
        if found is not None and scan.info.path not in inside and scan.info.rank == found[1]:
            nodes[found[0]].append((scan, found[1]))
    return nodes


def _stacked_offsets(trees: dict[str, list[tuple[FileScan, int]]]) -> dict[str, int]:
    """Offsets for the trees none of whose files names a global rank, when the trees lie in
    different node folders: each such tree takes the next free block of its size, in the
    natural order of its path, after the blocks the named trees hold."""
    if len(trees) < 2 or len({_node_folder(agent) for agent in trees}) != len(trees):
        return {}
    taken: list[range] = []
    silent = []
    for agent, members in trees.items():
        witnesses = {_named(scan, local) for scan, local in members} - {None}
        size = max(local for _, local in members) + 1
        if len(witnesses) == 1:
            (offset,) = witnesses
            taken.append(range(offset, offset + size))
        elif witnesses:
            return {}  # a tree whose files disagree: nothing to stack against
        else:
            silent.append((agent, size))
    if not silent or (len(silent) == 1 and not taken):
        return {}
    offsets, start = {}, 0
    for agent, size in sorted(silent, key=lambda item: _natural(item[0])):
        while any(start < block.stop and block.start < start + size for block in taken):
            start = min(
                block.stop for block in taken if start < block.stop and block.start < start + size
            )
        offsets[agent] = start
        taken.append(range(start, start + size))
        start += size
    return offsets


def _node_folder(agent: str) -> str:
    """The folder above the run's own folder: `node1/torchrun_logs/` of
    `node1/torchrun_logs/job_a1/`."""
    return str(PurePosixPath(agent.rstrip("/")).parent)


def _natural(path: str) -> list[tuple[int, object]]:
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", path)]


def _named(scan: FileScan, local: int) -> int | None:
    named = scan.facts.get("named_rank")
    return named - local if isinstance(named, int) else None


def _one_offset(found: Iterable[int | None]) -> int | None:
    """The offset every witness agrees on (None: no witness, or two offsets)."""
    offsets = {offset for offset in found if offset is not None}
    if len(offsets) != 1:
        return None
    (offset,) = offsets
    return offset if offset > 0 else None


def _move_file(scan: FileScan, old: int, new: int) -> None:
    scan.info.rank = new
    for event in scan.events:
        if event.rank == old:
            event.rank = new
    track = scan.facts.get("checkpoints")
    if isinstance(track, CheckpointTrack):
        _renumber(track, {old: new})


def _launcher_offset(scan: FileScan, trees: dict[str, int]) -> int | None:
    """From the launcher's own lines that carry both tags; else from the agent trees under
    the launcher log's folder, when they all agree."""
    pairs = _tag_offsets(scan)
    own = _one_offset(pairs)
    if own is not None or pairs:
        return own
    folder = folder_prefix(scan.info.path)
    return _one_offset(offset for agent, offset in trees.items() if agent.startswith(folder))


def _tag_offsets(scan: FileScan) -> list[int]:
    """Global minus local rank on every copied line that carries both tags, and on the
    first copied line of each child that states its rank (a start line's `rank=6`, a
    logging tag `[rank6]`): a child that only printed progress before it was killed has no
    doubly tagged line, but logged its rank when it started."""
    pairs = []
    for event in scan.events:
        found = _local_tag(event.text)
        if found and found.group(2) is not None:
            pairs.append(int(found.group(2)) - int(found.group(1)))
    stated = scan.facts.get("local_named_ranks") or {}
    pairs += [int(rank) - int(local) for local, rank in stated.items()]
    return pairs


def _move_labelled_agents(scan: FileScan) -> bool:
    """One file holding several agents' consoles, each line under the `srun --label` task that
    ran that node's agent (`1: [default2]:iter 8 done`): the `[defaultN]:` tags of two tasks
    are the same local numbers, so each task is placed by its own doubly tagged lines
    (`1: [default1]:[rank5]: ...`). A task whose lines agree on one offset above 0 moves its
    copies' local ranks below it; a task with none keeps its numbers. Whether the file was
    read this way (it holds the lines of two tasks or more)."""
    track = scan.facts.get("checkpoints")
    tasks = {e.worker for e in scan.events if (e.worker or "").startswith(SRUN_FRAMEWORK + ":")}
    if isinstance(track, CheckpointTrack):
        tasks |= {w for w in track.workers if w.startswith(SRUN_FRAMEWORK + ":")}
    if len(tasks) < 2:
        return False
    offsets: dict[str, int] = {}
    for task in tasks:
        pairs = []
        for event in scan.events:
            found = _local_tag(event.text) if event.worker == task else None
            if found and found.group(2) is not None:
                pairs.append(int(found.group(2)) - int(found.group(1)))
        offset = _one_offset(pairs)
        if offset is not None:
            offsets[task] = offset
    for event in scan.events:
        offset = offsets.get(event.worker or "")
        found = _local_tag(event.text) if offset else None
        if found and found.group(2) is None and event.rank == int(found.group(1)) < offset:
            event.rank += offset
    if isinstance(track, CheckpointTrack) and offsets:
        for index in range(len(track)):
            worker = track.worker[index] if track.workers else NO_RANK
            offset = offsets.get(track.workers[worker]) if worker != NO_RANK else None
            rank = track.rank[index]
            if offset and rank != NO_RANK and rank < offset:
                track.set_rank(index, rank + offset)
    return True


def _move_launcher_copies(scan: FileScan, offset: int) -> None:
    """Lines the launcher copied with only the local tag; an agent's global ranks start at
    `offset`, so a rank below it on a copied line can only be a local one."""
    for event in scan.events:
        found = _local_tag(event.text)
        if found and found.group(2) is None and event.rank == int(found.group(1)):
            event.rank += offset
    track = scan.facts.get("checkpoints")
    if isinstance(track, CheckpointTrack):
        _renumber(track, {local: local + offset for local in range(offset)})


def _renumber(track: CheckpointTrack, moves: dict[int, int]) -> None:
    for index, rank in enumerate(track.rank):
        if rank != NO_RANK and rank in moves:
            track.set_rank(index, moves[rank])
