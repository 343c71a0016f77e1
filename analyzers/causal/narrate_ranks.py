"""Ranks in words, for the sentences of a diagnosis: `rank 3`, `ranks 0, 1, 2`, it/them."""

from __future__ import annotations

from collections.abc import Sequence

MAX_LISTED = 8


def ranks_phrase(ranks: Sequence[int]) -> str:
    ranks = sorted(set(ranks))
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    shown = ", ".join(str(r) for r in ranks[:MAX_LISTED])
    more = len(ranks) - MAX_LISTED
    return f"ranks {shown}" + (f" and {more} more" if more > 0 else "")


def it(ranks: Sequence[int], one: str = "it", several: str = "them") -> str:
    """The pronoun for one rank or several (`it`/`them`, `its`/`their`, ...)."""
    return one if len(set(ranks)) == 1 else several


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]
