"""A job-level decision made from the ranks side by side (`analyzers.report.multirank`)."""

from __future__ import annotations

from dataclasses import dataclass

from analyzers.core.phrases import Said


@dataclass(frozen=True, slots=True)
class Verdict:
    """A job-level decision: label, how sure, whom it blames and why (one clause, in
    English and Chinese)."""

    rule: str
    category: str
    subsystem: str
    confidence: float
    culprits: tuple[int, ...]
    reason: Said
    # the neighbours the guide names for this reading; when set they replace the first error's
    # own rule's neighbours, which the ranks' pattern has ruled out (`causal.alternatives`)
    neighbours: tuple[str, ...] | None = None
