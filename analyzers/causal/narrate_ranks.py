"""Ranks in words, for the sentences of a diagnosis: `rank 3`, `ranks 0, 1, 2`, it/them.

The words come from the phrasebook (`analyzers.core.phrases`), which says them in Chinese
too; `ranks_phrase` is the English alone, for text that has no Chinese twin.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core.phrases import capitalise, ranks_said

__all__ = ["capitalise", "it", "ranks_phrase"]


def ranks_phrase(ranks: Sequence[int]) -> str:
    return ranks_said(ranks).en


def it(ranks: Sequence[int], one: str = "it", several: str = "them") -> str:
    """The pronoun for one rank or several (`it`/`them`, `its`/`their`, ...)."""
    return one if len(set(ranks)) == 1 else several
