"""The label of a first error whose own line names no failure kind.

A CANN error-manager line with a generic code (`EE9999 ... get error: phyid:0 ... is
err:0x7010003`) can be the earliest cause of a block while the line that says which
layer failed is the wrapper right above it (`HCCL function error: hcclCommInitRootInfoConfig
..., error code is 15`). The block's own lines then label the failure: the most telling
line of the same block that carries a category (a line that went below an unread line leading
its block, `analyzers.classify.record_leads`, still counts). When no line of the block carries one,
the weak hints of `analyzers.causal.fallback` (exception class, codes, keywords) may still agree.
A signature marked `settled` labels its line `other` on purpose (a failure kind outside the
taxonomy, such as a non-finite gradient): its words must not be re-read by the hints.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal import fallback
from analyzers.causal.first_error import CausalChain
from analyzers.classify.events import TIER_WRAPPER
from analyzers.core.types import FileScan

UNLABELLED = "other"


def first_error_label(chain: CausalChain, scans: Sequence[FileScan] = ()) -> tuple[str, str]:
    """(category, subsystem) for the chain's first error."""
    first = chain.first
    best = first.best if first else None
    if best is not None and (best.category != UNLABELLED or best.signature.settled):
        return best.category, best.subsystem
    block = [
        item
        for item in chain.nearby
        if item is not first
        and (item.tier >= TIER_WRAPPER or item.reports_lead)
        and item.best is not None
        and item.best.category != UNLABELLED
    ]
    if not block:
        return fallback.guess(chain, scans) or (UNLABELLED, best.subsystem if best else "none")
    telling = max(block, key=lambda item: (item.tier, item.best.weight if item.best else 0))
    assert telling.best is not None
    return telling.best.category, telling.best.subsystem
