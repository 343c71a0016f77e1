"""How many ranks the job was started with: the world size a launcher line or an environment
dump states, the processes one node's launcher started, and the ranks absent only because the
world size was set past them.

A rank is missing only from a world the job was really started with; ranks it never started,
or a shared output that names no rank, prove nothing::

    WORLD_SIZE=4
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.checkpoints.track import NO_RANK, track_of
from analyzers.core.types import Correlation, FileScan


def world_size_stated(scans: Sequence[FileScan], correlation: Correlation | None) -> bool:
    """Whether the world size that makes ranks missing is one the job was started with
    (ranks it never started are not missing: `never_started`)."""
    if stated_world_size(scans) is None or unranked_progress(scans):
        return False
    return not never_started(scans, correlation)


def unranked_progress(scans: Sequence[FileScan]) -> bool:
    """Whether a file read for no one rank holds progress lines that name no rank: ranks
    printing into one shared output without their rank (an mp.spawn driver's stdout, plain
    prints). A rank absent from the per-rank view may have written those lines, so its
    absence proves nothing."""
    for scan in scans:
        if scan.info.rank is not None:
            continue
        track = track_of(scan)
        if track is not None and any(rank == NO_RANK for rank in track.rank):
            return True
    return False


def never_started(scans: Sequence[FileScan], correlation: Correlation | None) -> list[int]:
    """The absent ranks, when the environment the job ran in counts fewer processes than the
    ranks say the world has and the ranks absent are exactly those past that count: a world
    size set too large, not ranks that died before writing a line."""
    launched = _launched(scans)
    if correlation is None or launched is None or not correlation.missing_ranks:
        return []
    if launched < (correlation.world_size or 0) and min(correlation.missing_ranks) >= launched:
        return list(correlation.missing_ranks)
    return []


def _launched(scans: Sequence[FileScan]) -> int | None:
    """The process count an environment dump states (`WORLD_SIZE=4`), when dumps agree; or,
    when the job has one node, the count that node's launcher started (`NPROC_PER_NODE=4`
    beside `MASTER_ADDR=127.0.0.1`), whichever is smaller: a dump that exports the world size
    the job was told repeats the mistake, while the per-node count says what ran."""
    counts = [n for n in (_env_count(scans, "WORLD_SIZE"), _one_node_count(scans)) if n is not None]
    return min(counts) if counts else None


def _env_count(scans: Sequence[FileScan], name: str) -> int | None:
    """A number every environment dump that states `name` agrees on."""
    counts = {str((scan.facts.get("env") or {}).get(name) or "").strip() for scan in scans} - {""}
    if len(counts) != 1 or not (only := counts.pop()).isdigit():
        return None
    return int(only)


# A rendezvous host only this machine can reach: no other node could have joined through it.
_LOOPBACK = re.compile(r"(?:127(?:\.\d{1,3}){3}|localhost|::1|\[::1\])", re.IGNORECASE)


def _one_node_count(scans: Sequence[FileScan]) -> int | None:
    """The processes a one-node job's launcher started: the per-node count, when the dump says
    the job has one node (`NNODES=1`) or its rendezvous host is a loopback address."""
    local = _env_count(scans, "NPROC_PER_NODE") or _env_count(scans, "LOCAL_WORLD_SIZE")
    if local is None:
        return None
    hosts = {str((scan.facts.get("env") or {}).get("MASTER_ADDR") or "").strip() for scan in scans}
    hosts -= {""}
    loopback = len(hosts) == 1 and _LOOPBACK.fullmatch(next(iter(hosts))) is not None
    return local if loopback or _env_count(scans, "NNODES") == 1 else None


def stated_world_size(scans: Sequence[FileScan]) -> int | None:
    """The world size a launcher line or env dump states (not one guessed from ranks seen)."""
    for scan in scans:
        stated = scan.facts.get("world_size") or (scan.facts.get("env") or {}).get("WORLD_SIZE")
        if str(stated or "").strip().isdigit():
            return int(stated)
    return None
