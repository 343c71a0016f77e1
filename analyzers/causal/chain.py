"""The causal chain of a failure: what `analyzers.causal.first_error` finds and `analyzers.causal.culprits` reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CAUSE, TIER_UNKNOWN, TIER_WRAPPED_CAUSE
from analyzers.core.checkpoint_timeline import epoch as epoch_of
from analyzers.core.phrases import Said

CLOCK_TOLERANCE_S = 2.0  # ranks' clocks and write buffering disagree by about this much
MIN_WAITERS = 2  # one waiting rank is no pack to compare the others' waits against

# Tiers of lines that report a failure of their own writer (not a wait on someone else).
OWN_FAILURE_TIERS = (TIER_CAUSE, TIER_WRAPPED_CAUSE, TIER_UNKNOWN)


@dataclass(frozen=True, slots=True)
class Blame:
    """Culprit ranks and a clause about them saying why (`the first error names it`); the
    clause is None when the first error's own rank is the only culprit and says it all. The
    clause is said in English and Chinese (the diagnosis' sentences are built from it)."""

    ranks: list[int]
    why: Said | None = None


@dataclass(slots=True)
class CausalChain:
    """The first causal error, the lines that back it, and the ones it explains."""

    first: Classified | None
    top: list[Classified] = field(default_factory=list)  # every line at the first's tier
    supporting: list[Classified] = field(default_factory=list)
    cascades: list[Classified] = field(default_factory=list)
    nearby: list[Classified] = field(default_factory=list)  # the first error's block
    culprit_ranks: list[int] = field(default_factory=list)
    # Why those ranks, as a clause (`the first error names it`); None when the first error's
    # own rank is the only culprit and says it all.
    culprit_why: Said | None = None
    # Every rank-tied line that reports its writer's own failure, in causal order.
    own_failures: list[Classified] = field(default_factory=list)
    consequence_ranks: list[int] = field(default_factory=list)  # ranks with only cascades
    # Per rank, its first line saying a peer's end of a connection went away under it.
    peer_gone: dict[int, Classified] = field(default_factory=dict)
    # Waits that stood behind another rank's wait (`Signature.waits_behind`): no longer at
    # the first's tier, but still where their ranks were waiting.
    waited_behind: list[Classified] = field(default_factory=list)


def epoch(item: Classified, offsets: Mapping[int, float]) -> float | None:
    """Seconds on the reference rank's clock, or None for a line without time."""
    moment = item.event.timestamp
    if moment is None:
        return None
    offset = offsets.get(item.rank, 0.0) if item.rank is not None else 0.0
    return epoch_of(moment) - offset


def outwaited(items: Sequence[Classified], stopped: Sequence[int]) -> bool:
    """Whether another rank's failure is a wait that ran out (a collective's timeout, not a
    lost connection): the peers of a rank stopped by a signal timed out waiting for it only if
    it was still alive and not answering. It had stalled before the stop, which only ended a
    job already stuck; a rank killed first leaves its peers a closed connection instead."""
    return any(
        item.rank is not None
        and item.rank not in stopped
        and item.best is not None
        and item.best.signature.role == "symptom"
        and not item.best.signature.peer_gone
        for item in items
    )


def failed_by_itself(items: Sequence[Classified], stopped: Sequence[int]) -> bool:
    """Whether a rank other than the stopped ones logged a failure of its own (an exception it
    raised, a fault): the stopped ranks were left waiting for a rank that had ended by itself,
    and the stop from outside (a script's `timeout`) only ended a job that rank had broken.
    A line that reads as a stop itself, a lost peer or a launcher's exit record is no such
    failure: it follows from a stop, or only summarises an end."""
    for item in items:
        best = item.best
        if item.rank is None or item.rank in stopped or item.demoted:
            continue
        if item.tier not in OWN_FAILURE_TIERS:
            continue
        sig = best.signature if best is not None else None
        if sig is None or not (
            sig.peer_gone or sig.cause_if_silent or sig.outside_stop or sig.signalled_stop
        ):
            return True
    return False
