"""Who the ranks that lost a peer lost: the one rank whose own log records its process ending
while the others report the loss, the ranks of the one node whose agent went silent, or the
rank that called one more collective after its peers had finished cleanly.

A lost connection names no one, so these read the other ranks' ends::

    RuntimeError: ... Connection closed by peer [127.0.0.1]:2461.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import Blame, CausalChain
from analyzers.checkpoints.patterns import is_success
from analyzers.classify.matches import Classified
from analyzers.core.phrases import say, several
from analyzers.core.types import Correlation, EventKind, FileKind, FileScan, RankStatus
from analyzers.ingest.layout import folder_prefix


def ended_apart(chain: CausalChain) -> Blame | None:
    """The rank whose own log records its process ending (a fault handler's abort, read as an
    echo of a native check that was not logged) while the ranks that reported a lost peer are
    all others: theirs is the process they lost. A rank that lost a peer itself and then
    ended is one of the victims, and its end names no one."""
    first = chain.first
    assert first is not None
    if first.rank is None or not chain.peer_gone or first.rank in chain.peer_gone:
        return None
    if first.category != "device_fault" or first.demoted:
        return None
    if any(match.signature.cause_if_silent for match in first.matches):
        return None  # a launcher's status line: its own reading decides (`names_its_culprits`)
    return Blame([first.rank], say("blame.ended_apart"))


def lost_agent(
    first: Classified, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """The ranks of the one node whose launcher agent's console ends with no error at all,
    when the first error is another agent's own line that the far end of its connection
    closed (the rendezvous store it shared went down with that agent): an agent that stops its
    workers, or sees them fail, says so; one killed with its node says nothing. The ranks whose
    files lie in that agent's node folder are blamed, not the ranks the surviving agent then
    stopped itself."""
    if correlation is None or first.rank is not None:
        return None
    if not any(match.signature.peer_gone for match in first.matches):
        return None
    agents = [scan for scan in scans if scan.info.kind == FileKind.LAUNCHER]
    if not any(scan.info.path == first.event.file for scan in agents):
        return None
    mute = [
        scan
        for scan in agents
        if scan.info.path != first.event.file
        and not any(event.kind == EventKind.ERROR for event in scan.events)
    ]
    if len(mute) != 1 or not (folder := folder_prefix(mute[0].info.path)):
        return None
    if folder_prefix(first.event.file) == folder:
        return None
    ranks = sorted(
        r.rank
        for r in correlation.ranks
        if r.status != RankStatus.MISSING
        and r.files
        and all(path.startswith(folder) for path in r.files)
    )
    if not ranks or len(ranks) >= len(correlation.ranks):
        return None
    return Blame(ranks, say("blame.lost_agent", folder=folder, many=several(ranks)))


def ran_past_finished_peers(first: Classified, correlation: Correlation | None) -> Blame | None:
    """The rank that lost its peers in a collective when every other rank had printed its
    success line and ended cleanly: the peers did not go away early, they were done; the rank
    alone called one more collective (a statistic synced on one rank, an extra step) after the
    sequence they all ran, so it is the one whose behaviour diverged. A peer that ended with an
    error, or one that never printed its success line, leaves the usual reading in place."""
    if correlation is None or first.rank is None:
        return None
    others = [r for r in correlation.ranks if r.rank != first.rank]
    if not others or len(others) + 1 != len(correlation.ranks):
        return None
    if not all(
        r.status == RankStatus.OK and r.last_checkpoint and is_success(r.last_checkpoint)
        for r in others
    ):
        return None
    return Blame([first.rank], say("blame.ran_past_finished_peers", rank=first.rank))
