"""Classified lines built by hand from real signature objects, for tests of the stages that
read what the classifier produced (confidence, the rank-pattern rules).

A test names only what its case turns on: the rule's label, weight and flags, the line's tier
and rank. Everything else takes a plain value, and a field the signature model does not have
fails at once, as it would in `knowledge/signatures.yaml`.

    >>> refused = signature("cfg.refused", "config", rank_past_world=True)
    >>> line(refused, rank=3).best.signature.rank_past_world
    True
"""

from __future__ import annotations

import re
from typing import Any

from analyzers.classify.matches import Classified, Match
from analyzers.classify.signature import Signature
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.classify.tiers import TIER_CASCADE
from analyzers.core.types import Event, EventKind


def signature(
    rule: str, category: str, *, weight: int = 50, role: str = "cause", **flags: Any
) -> Signature:
    """A signature `rule` of `category`, in the category's first subsystem."""
    return Signature(
        id=rule,
        title=rule,
        category=category,
        subsystem=TAXONOMY[category][0],
        role=role,
        weight=weight,
        keywords=(rule,),
        regex=re.compile(re.escape(rule)),
        **flags,
    )


def line(
    read_by: Signature,
    tier: float = TIER_CASCADE,
    *,
    rank: int | None = None,
    text: str = "",
    at: int = 1,
    codes: tuple[str, ...] = (),
) -> Classified:
    """One error line that `read_by` read, at `tier`, line `at` of the file of `rank`."""
    said = text or read_by.id
    event = Event(f"rank{rank}.log", at, said, EventKind.ERROR, said, rank=rank, codes=codes)
    match = Match(read_by, read_by.category, read_by.subsystem, read_by.role, read_by.weight)
    return Classified(event, rank or 0, (match,), tier, rank=rank)
