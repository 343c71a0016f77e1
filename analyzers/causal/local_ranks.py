"""A launcher names its children by local rank, numbered from 0 on each node: the global
ranks they are, from the agent's failure report (the child's pid picks its record), its log
tree's offset, or the unbroken run of ranks its file holds; and the node's other children a
SIGKILL took with the one named.

Every stage that blames a rank from a launcher's line goes through this mapping::

    failed (exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python
"""

from __future__ import annotations

import re
import signal
from collections.abc import Mapping, Sequence

from analyzers.checkpoints.track import NO_RANK
from analyzers.classify.matches import Classified
from analyzers.core.types import Correlation, FileScan
from analyzers.timeline.agent_ranks import AGENT_OFFSET


def global_ranks(named: Sequence[int], first: Classified, scans: Sequence[FileScan]) -> list[int]:
    """Ranks a line names; a launcher names local ranks, mapped through its failure report.
    Each node's agent numbers its children from 0, so its own report maps them first; the
    other launchers' reports only when its own says nothing about that local rank."""
    if not any(m.signature.culprit == "local_rank" for m in first.matches):
        return sorted(set(named))
    mine = [scan for scan in scans if scan.info.path == first.event.file]
    own = [r for scan in mine for r in elastic_failures(scan)]
    records = [r for scan in scans for r in elastic_failures(scan)]
    share = _node_share(first, scans)
    # the child's pid on the line picks its own record out of several agents' reports (two
    # consoles in one file both number a child 2); an agent with no report of its own is
    # placed by its log tree's offset (`timeline.agent_ranks`) before another agent's report
    pids = dict(_LOCAL_PID.findall(first.event.text))
    offsets = {scan.facts.get(AGENT_OFFSET) for scan in mine} - {None}
    ranks = set()
    for local in named:
        pid = pids.get(str(local))
        known = _global_by_pid(local, pid, own) or _global_by_pid(local, pid, records)
        known = known or _global_of(local, own)
        if not known and len(offsets) == 1:
            known = {local + int(next(iter(offsets)))}
        known = known or _global_of(local, records)
        if len(known) == 1:
            ranks.add(known.pop())
        elif not own and local < len(share):
            ranks.add(share[local])
        else:
            ranks.add(local)
    return sorted(ranks)


def node_stopped_from_outside(
    first: Classified, correlation: Correlation | None, scans: Sequence[FileScan]
) -> list[int]:
    """The ranks an agent stopped from outside was running, when it ran only some of the
    job's ranks (one node's agent of several, its file holding that node's ranks' progress
    lines): the stop took them out and their peers lost them. An agent running every rank
    names nobody this way."""
    if correlation is None or not any(m.signature.outside_stop for m in first.matches):
        return []
    share = _node_share(first, scans)
    everyone = {r.rank for r in correlation.ranks}
    if not share or not set(share) < everyone:
        return []
    return share


def _node_share(first: Classified, scans: Sequence[FileScan]) -> list[int]:
    """The global ranks whose progress lines fill the first error's file, when they are one
    unbroken run (`[rank3]` .. `[rank5]`): a launcher that numbers its children from 0 on
    each node (a spawn per node, `process 1 terminated ...`) then means the run's second
    rank. A file of ranks 0..n-1 maps each local rank to itself; a broken run maps nothing."""
    for scan in scans:
        if scan.info.path != first.event.file:
            continue
        track = scan.facts.get("checkpoints")
        seen = sorted(set(track.rank) - {NO_RANK}) if track is not None else []
        if seen and seen == list(range(seen[0], seen[0] + len(seen))):
            return seen
    return []


def killed_alongside(
    ranks: Sequence[int], first: Classified, scans: Sequence[FileScan]
) -> list[int]:
    """A launcher line about one child killed by SIGKILL, with the same agent's report
    listing more of its children killed by SIGKILL: the kill took them together (a node's
    processes taken by the host's OOM killer or a reboot), and each is a culprit, not only
    the one the agent noticed first. Children the agent stopped itself (SIGTERM) or that
    exited with a status are not added."""
    if not any(m.signature.culprit == "local_rank" for m in first.matches):
        return list(ranks)
    own = [
        r for scan in scans if scan.info.path == first.event.file for r in elastic_failures(scan)
    ]
    killed = {r.get("rank") for r in own if _sigkilled(r)} - {None}
    if not killed or not set(ranks) <= killed:
        return list(ranks)
    return sorted({*ranks, *(r for r in killed if isinstance(r, int))})


def _sigkilled(record: Mapping[str, object]) -> bool:
    code = record.get("exitcode")
    return isinstance(code, int) and code == -signal.SIGKILL


def elastic_failures(scan: FileScan) -> Sequence[Mapping[str, object]]:
    return scan.facts.get("elastic_failures") or ()


def _global_of(local: int, records: Sequence[Mapping[str, object]]) -> set[object]:
    return {r.get("rank") for r in records if r.get("local_rank") == local} - {None}


# torchrun's line of a failed child: `local_rank: 2 (pid: 28493)`
_LOCAL_PID = re.compile(r"local_rank: (\d+) \(pid: (\d+)\)")


def _global_by_pid(
    local: int, pid: str | None, records: Sequence[Mapping[str, object]]
) -> set[object]:
    if pid is None:
        return set()
    return {
        r.get("rank") for r in records if r.get("local_rank") == local and str(r.get("pid")) == pid
    } - {None}
