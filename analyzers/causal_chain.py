"""The causal chain of a failure: what `analyzers.causal` finds and `analyzers.culprits` reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzers.classify import TIER_CAUSE, TIER_UNKNOWN, TIER_WRAPPED_CAUSE, Classified

# Tiers of lines that report a failure of their own writer (not a wait on someone else).
OWN_FAILURE_TIERS = (TIER_CAUSE, TIER_WRAPPED_CAUSE, TIER_UNKNOWN)


@dataclass(slots=True)
class CausalChain:
    """The first causal error, the lines that back it, and the ones it explains."""

    first: Classified | None
    top: list[Classified] = field(default_factory=list)  # every line at the first's tier
    supporting: list[Classified] = field(default_factory=list)
    cascades: list[Classified] = field(default_factory=list)
    nearby: list[Classified] = field(default_factory=list)  # the first error's block
    culprit_ranks: list[int] = field(default_factory=list)
    consequence_ranks: list[int] = field(default_factory=list)  # ranks with only cascades
