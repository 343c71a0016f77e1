"""The sentence that reconciles the first error with the culprit ranks.

The first error is the earliest line that explains the rest; the culprits are the ranks
whose own behaviour started the failure. They differ when a peer reports first (a
monitored barrier names the rank that never arrived, a timeout fires on a rank that waited)
or when several ranks fail together, and the card then says so::

    Rank 0 reported first; rank 2 caused it: the first error names it.
    Rank 3 failed the same way 49 ms later; ranks 2, 3 started it.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import CausalChain
from analyzers.causal.narrate_ranks import capitalise, ranks_phrase
from analyzers.causal.stalled import HANG_RULE
from analyzers.report.multirank import Verdict


def chain_note(chain: CausalChain, verdict: Verdict | None, culprits: Sequence[int]) -> str | None:
    """The note for a diagnosis with a first error; a rank-pattern verdict that chose other
    culprits than the chain explains them with its own reason."""
    first = chain.first
    assert first is not None
    own = list(culprits) == chain.culprit_ranks
    why = chain.culprit_why if own else (verdict.reason if verdict else None)
    reporter = first.rank if first.rank is not None else first.event.rank
    return culprit_note(reporter, culprits, why)


def verdict_note(verdict: Verdict) -> str | None:
    """Without an error line, the verdict's reason is why: whom the ranks blame, or, for a
    hang of ranks that all stopped together, that nobody stands out."""
    if not (verdict.culprits or verdict.rule == HANG_RULE) or not verdict.reason:
        return None
    return capitalise(verdict.reason) + "."


def culprit_note(reporter: int | None, culprits: Sequence[int], why: str | None) -> str | None:
    """None when the first error's rank is the one culprit (the card says it already)."""
    blamed = sorted(set(culprits))
    why = why.rstrip(". ") if why else None
    if not blamed:
        return None
    if reporter in blamed:
        if why is None or blamed == [reporter]:
            return None
        return f"{capitalise(why)}; {ranks_phrase(blamed)} started it."
    who = (
        f"Rank {reporter} reported first" if reporter is not None else "The first error has no rank"
    )
    because = f": {why}" if why else ""
    return f"{who}; {ranks_phrase(blamed)} caused it{because}."
