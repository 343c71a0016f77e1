"""Ranks that stopped with no error of their own while their peers failed.

The peers lost them (a closed connection, a timeout) and they never said why: a process
killed from outside, or one stuck in its own code where its peers could not follow. Half
the ranks or more going quiet names no one, unless they are one node's ranks together
(`node1/`, `worker-2/`)::

    it stopped without an error while the others failed, last at 'layer 3 / norm passed'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import PurePosixPath

from analyzers.causal.apart_ranks import last_of
from analyzers.causal.chain import Blame
from analyzers.core.phrases import say, several
from analyzers.core.types import Correlation, RankStatus


def silent(
    correlation: Correlation, size_stated: bool, spared: Collection[int] = frozenset()
) -> Blame | None:
    """The few ranks that stopped with no error of their own while every other rank failed:
    the others lost them (a closed connection, a timeout), and they never said why - a
    process killed from outside, or one stuck where its peers could not follow. Ranks the
    launcher stopped after the peers had lost a process that went away (`spared`) were alive
    until then: quiet because it stopped them, not suspects."""
    quiet = [
        r.rank for r in correlation.ranks if r.status == RankStatus.HUNG and r.rank not in spared
    ]
    loud = [r for r in correlation.ranks if r.status not in (RankStatus.HUNG, RankStatus.MISSING)]
    if not quiet or not loud or any(r.status == RankStatus.OK for r in loud):
        return None
    node = None
    if len(quiet) * 2 >= len(correlation.ranks):
        node = one_node_folder(correlation, quiet)
        if node is None:
            return None
    why = say("waited.quiet", subject=say("apart.subject", many=several(quiet)))
    if node is not None:
        why = say("waited.quiet_node", folder=node)
    mine = last_of(correlation.ranks, quiet, inside=True)
    return Blame(quiet, why + say("waited.quiet_at", checkpoint=mine) if mine else why)


def quiet_not_apart(
    correlation: Correlation, size_stated: bool, spared: Collection[int] = frozenset()
) -> Blame | None:
    """The quiet ranks of `silent` ahead of the few outliers of `apart`, when none of them is
    an outlier and every outlier failed with an error of its own. A rank ahead of or behind the
    pack that then failed reached a collective that could fail; the quiet one never did (it was
    stuck in its own code: a lock, a queue, a loop) and the others' collective waited for it.
    Where the pack stopped is then only where that collective met each rank: a broadcast that
    reached one rank before its root blocked on the quiet one lets that rank run one layer
    further."""
    outliers = set(correlation.ahead_ranks) | set(correlation.behind_ranks)
    if not outliers:
        return None
    status = {r.rank: r.status for r in correlation.ranks}
    if any(status.get(rank) != RankStatus.ERROR for rank in outliers):
        return None
    blame = silent(correlation, size_stated, spared)
    if blame is None or outliers & set(blame.ranks):
        return None
    return blame


def one_node_folder(correlation: Correlation, quiet: Sequence[int]) -> str | None:
    """The folder that holds every file of the quiet ranks and all of no other rank's: a
    node's own folder (`node1/`, `worker-2/`) of a multi-node job whose ranks all went
    silent together while the other nodes' ranks failed - the node went away (a lost
    machine, a killed agent). Half the ranks or more going quiet names no one otherwise."""
    held: dict[str, set[int]] = {}
    for summary in correlation.ranks:
        if summary.status == RankStatus.MISSING or not summary.files:
            continue
        folders = [set(PurePosixPath(f).parents) for f in summary.files]
        for folder in set.intersection(*folders):
            if str(folder) != ".":
                held.setdefault(str(folder), set()).add(summary.rank)
    wanted = set(quiet)
    found = [folder for folder, ranks in held.items() if ranks == wanted]
    return min(found, key=len) + "/" if found else None
