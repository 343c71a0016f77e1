"""A job interrupted by hand with no launcher to record it (Ctrl-C in the terminal that runs
one process per rank): every rank gets the interrupt, but not at the same moment.

Python raises `KeyboardInterrupt` only when control comes back to the interpreter. A rank in
its own code (a sleep, a loop) raises it at once and exits, closing its connections; a rank
blocked inside a collective raises it only when the collective returns, and the collective
returns because that first rank's connections closed: its traceback shows the lost peer
(`Connection closed by peer`), then, during its handling, its own `KeyboardInterrupt`. So when
every rank that lost a peer was itself interrupted and some rank was interrupted with no lost
peer, the lost peers are what the interrupt did, not a crash the interrupt came after; and the
few ranks interrupted outside any collective are the ones the others were waiting for, their
interrupts raised before the others' and so the first error. A
launcher interrupted itself (torchrun's `Received 2 death signal`) passes the interrupt on, and
the same evidence places its workers' untimed lost connections after its record.

The interrupt can also reach one process alone (`kill -INT` of its pid, a tool that signals
one worker): the ranks that lost a peer were then not interrupted at all, and the interrupted
ranks lost none. Their `KeyboardInterrupt` is what ended them and the peers' lost connections
follow from it, as does the launcher's report of the child's SIGINT (`exitcode: -2`).
docs/labelling.md, "A job stopped from outside".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from analyzers.causal.chain import Blame, CausalChain
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE, TIER_GENERIC
from analyzers.core.phrases import say, several

_BARE = re.compile(r"^\s*KeyboardInterrupt\b")


def _interrupted(items: Sequence[Classified]) -> set[int]:
    return {
        item.rank
        for item in items
        if item.rank is not None
        and item.best is not None
        and item.best.signature.interrupted
        and _BARE.match(item.event.message or "")
    }


def _lost_peer(items: Sequence[Classified]) -> set[int]:
    return {
        item.rank
        for item in items
        if item.rank is not None and any(m.signature.peer_gone for m in item.matches)
    }


def demote_lost_peers_of_interrupted(
    items: Sequence[Classified], before_stop: Collection[int] = ()
) -> None:
    """Lost peers of ranks that were interrupted themselves, when some rank was interrupted
    without losing a peer. With a launcher's record of the stop this is how its workers'
    lost connections are known to follow it when their files give them no time to place
    them after the record by (`demote_cascades_after_stop` reads those that have one); a lost
    peer that the clock, its file or the launcher's copy places before the record
    (`before_stop`, ids of items) was a failure before anyone stopped the job, and the lost
    peers then keep their reading."""
    interrupted, lost = _interrupted(items), _lost_peer(items)
    if not lost or not lost <= interrupted or not interrupted - lost:
        return
    if any(
        id(item) in before_stop and any(m.signature.peer_gone for m in item.matches)
        for item in items
    ):
        return
    for item in items:
        gone = any(m.signature.peer_gone for m in item.matches)
        if item.rank in lost and item.tier > TIER_GENERIC and gone:
            item.tier, item.demoted = TIER_GENERIC - 0.5, True
    _lead_interrupted_outside(items, interrupted, lost)


def _lead_interrupted_outside(
    items: Sequence[Classified], interrupted: set[int], lost: set[int]
) -> None:
    """The interrupts of the few ranks that were in their own code lead the others': those
    ranks raised theirs at once, the others only after the collective they were blocked in
    returned, which it did because the first ranks exited. Files without times would otherwise
    put whichever rank's file comes first ahead. A launcher interrupted itself keeps its record
    first (`outside_stop`)."""
    outside = interrupted - lost
    if len(outside) * 2 >= len(interrupted):
        return  # as `interrupted_outside`: the few outside, not most ranks, were waited for
    if any(item.best is not None and item.best.signature.outside_stop for item in items):
        return
    for item in items:
        if (
            item.rank in outside
            and item.best is not None
            and item.best.signature.interrupted
            and _BARE.match(item.event.message or "")
        ):
            item.tier = max(item.tier, TIER_GENERIC + 0.25)


def lead_ranks_interrupted_alone(items: Sequence[Classified]) -> None:
    """Ranks interrupted while every rank that lost a peer was not: the interrupt went to
    those processes alone, so their own `KeyboardInterrupt` leads the peers' lost connections
    and the launcher's report of how they ended."""
    if any(item.best is not None and item.best.signature.outside_stop for item in items):
        return  # the launcher was interrupted: its record is read instead
    interrupted, lost = _interrupted(items), _lost_peer(items)
    if not interrupted or not lost or interrupted & lost:
        return
    for item in items:
        gone = any(m.signature.peer_gone for m in item.matches)
        if item.rank in interrupted and item.best is not None and item.best.signature.interrupted:
            item.tier = max(item.tier, TIER_CASCADE + 0.5)
        elif item.rank in lost and gone and TIER_GENERIC < item.tier <= TIER_CASCADE:
            item.tier, item.demoted = TIER_GENERIC - 0.5, True


def interrupted_outside(chain: CausalChain) -> Blame | None:
    """The few interrupted ranks that lost no peer while the others did: they were outside
    the collective the others were blocked in."""
    interrupted = _interrupted(chain.top)
    alone = sorted(interrupted)
    if interrupted and chain.peer_gone and not interrupted & set(chain.peer_gone):
        return Blame(alone, say("blame.interrupted_alone", many=several(alone)))
    lost = set(chain.peer_gone) & interrupted
    outside = sorted(interrupted - lost)
    if not lost or not outside or len(outside) * 2 >= len(interrupted):
        return None
    return Blame(outside, say("blame.interrupted_outside", many=several(outside)))
