"""The sentence that reconciles the first error with the culprit ranks.

The first error is the earliest line that explains the rest; the culprits are the ranks
whose own behaviour started the failure. They differ when a peer reports first (a
monitored barrier names the rank that never arrived, a timeout fires on a rank that waited)
or when several ranks fail together, and the card then says so::

    Rank 0 reported first; rank 2 caused it: the first error names it.
    Rank 3 failed the same way 49 ms later; ranks 2, 3 started it.

The note is said in English and Chinese at once (`analyzers.core.phrases`).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import CausalChain
from analyzers.causal.stalled import HANG_RULE
from analyzers.causal.verdict import Verdict
from analyzers.core.phrases import Said, ranks_said, say, sentence, strip_stop


def chain_note(chain: CausalChain, verdict: Verdict | None, culprits: Sequence[int]) -> Said | None:
    """The note for a diagnosis with a first error; a rank-pattern verdict that chose other
    culprits than the chain explains them with its own reason."""
    first = chain.first
    assert first is not None
    own = list(culprits) == chain.culprit_ranks
    why = chain.culprit_why if own else (verdict.reason if verdict else None)
    reporter = first.rank if first.rank is not None else first.event.rank
    return culprit_note(reporter, culprits, why)


def verdict_note(verdict: Verdict) -> Said | None:
    """Without an error line, the verdict's reason is why: whom the ranks blame, or, for a
    hang of ranks that all stopped together, that nobody stands out."""
    if not (verdict.culprits or verdict.rule == HANG_RULE) or not verdict.reason.en:
        return None
    return sentence(verdict.reason)


def culprit_note(reporter: int | None, culprits: Sequence[int], why: Said | None) -> Said | None:
    """None when the first error's rank is the one culprit (the card says it already)."""
    blamed = sorted(set(culprits))
    why = strip_stop(why) if why else None
    if not blamed:
        return None
    if reporter in blamed:
        if why is None or blamed == [reporter]:
            return None
        return sentence(say("note.why_started", why=why, ranks=ranks_said(blamed)))
    who = say("note.reported_first", rank=reporter) if reporter is not None else say("note.no_rank")
    if why and why.en:
        return sentence(say("note.caused_because", who=who, ranks=ranks_said(blamed), why=why))
    return sentence(say("note.caused", who=who, ranks=ranks_said(blamed)))
