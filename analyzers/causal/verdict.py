"""A job-level decision made from the ranks side by side (`analyzers.report.multirank`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Verdict:
    """A job-level decision: label, how sure, whom it blames and why (one clause)."""

    rule: str
    category: str
    subsystem: str
    confidence: float
    culprits: tuple[int, ...]
    reason: str
