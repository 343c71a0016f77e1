"""Every rank failed on its own with the same line, rank words and numbers aside: a setting
they all read started it, not one rank, so nobody is singled out.

Each rank prints the line, its own files and sizes aside::

    ValueError: num_experts (8) must be divisible by the expert-parallel size (6)
"""

from __future__ import annotations

import re

from analyzers.causal.chain import Blame, CausalChain
from analyzers.core.types import Correlation, RankStatus

_RANK_WORDS = re.compile(r"(?i)\[(?:rank\s*|default)\d+\]:?|\brank\s*\d+")

_NUMBER = re.compile(r"\d+")


def shared_by_all(chain: CausalChain, own: Blame, correlation: Correlation | None) -> bool:
    """Whether every rank of the job failed on its own with the same line (rank numbers
    aside): a setting they all read, not one rank, started it, so nobody is singled out.
    A rank's failure may be quoted in another rank's log before its own (torch's distributed
    checkpoint raises every failed rank's exception on every rank), so the line is looked
    for among each rank's failures, not only its first."""
    if correlation is None or len(own.ranks) < 2:
        return False
    present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    if set(own.ranks) != present:
        return False
    texts: dict[int, set[str]] = {}
    for item in chain.own_failures:
        if item.rank in present:
            texts.setdefault(item.rank, set()).add(
                _same_but_numbers(item.event.message or item.event.text)
            )
    return len(texts) == len(present) and bool(set.intersection(*texts.values()))


def _same_but_numbers(text: str) -> str:
    """A rank's failure text with its rank words and numbers taken out: each rank names its
    own files and sizes (`__2.metadata`, `[256, 32]`) in the failure they all share."""
    return _NUMBER.sub("#", _RANK_WORDS.sub("", text)).strip()
