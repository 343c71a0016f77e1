"""The ranks set apart by where they stopped, and the clause that says so.

Each job is four ranks of a training step as the correlation sees them: a status, a
checkpoint count, a last checkpoint, and the ranks it marks ahead of or behind the pack.
"""

from __future__ import annotations

import pytest

from analyzers.causal.apart_ranks import apart, apart_why, first_stopped, last_of
from analyzers.core.types import Correlation, RankStatus, RankSummary

ERROR, HUNG, MISSING = RankStatus.ERROR, RankStatus.HUNG, RankStatus.MISSING
NORM = "layer 3 / norm passed"
ATTENTION = "layer 3 / attention passed"


def job(*ranks: tuple[RankStatus, int, str | None], **facts: object) -> Correlation:
    summaries = [
        RankSummary(n, status, last and last.split(" / ")[-1], None, count, last)
        for n, (status, count, last) in enumerate(ranks)
    ]
    return Correlation(ranks=summaries, timeline={}, world_size=len(ranks), **facts)


def test_one_rank_behind_is_set_apart_where_it_stopped() -> None:
    correlation = job(
        (ERROR, 15, ATTENTION),
        (ERROR, 15, ATTENTION),
        (ERROR, 15, ATTENTION),
        (HUNG, 14, NORM),
        behind_ranks=[3],
    )
    blame = apart(correlation, True)
    assert blame is not None
    assert blame.ranks == [3]
    assert blame.why.en == f"it stopped at '{NORM}' while the others went on to '{ATTENTION}'"


def test_one_rank_ahead_skipped_a_collective_the_others_waited_in() -> None:
    correlation = job(
        (ERROR, 14, NORM),
        (ERROR, 14, NORM),
        (ERROR, 15, ATTENTION),
        (ERROR, 14, NORM),
        ahead_ranks=[2],
    )
    assert apart_why(correlation, [2]).en == (
        f"it ran on to '{ATTENTION}' while the others stopped at '{NORM}', skipping a "
        "collective they waited in"
    )


def test_half_the_ranks_apart_single_no_one_out() -> None:
    correlation = job(
        (ERROR, 14, NORM),
        (ERROR, 14, NORM),
        (ERROR, 15, ATTENTION),
        (ERROR, 15, ATTENTION),
        ahead_ranks=[2, 3],
    )
    assert apart(correlation, True) is None


def test_with_no_pack_the_ranks_with_fewest_checkpoints_stopped_first() -> None:
    correlation = job((ERROR, 14, NORM), (ERROR, 14, NORM), (ERROR, 9, "layer 2 / norm passed"))
    blame = first_stopped(correlation, True)
    assert blame is not None
    assert blame.ranks == [2]
    assert blame.why.en.startswith("it stopped at 'layer 2 / norm passed'")


@pytest.mark.parametrize(
    ("chosen", "inside", "last"),
    [
        pytest.param([3], True, NORM, id="the-chosen-rank"),
        pytest.param([3], False, ATTENTION, id="a-missing-rank-is-left-out"),
        pytest.param([0], False, None, id="the-others-disagree"),
        pytest.param([0, 1], True, ATTENTION, id="two-that-agree"),
        pytest.param([0, 1, 3], False, None, id="only-a-missing-rank-left"),
    ],
)
def test_last_of_is_the_checkpoint_a_side_agrees_on(
    chosen: list[int], inside: bool, last: str | None
) -> None:
    correlation = job(
        (ERROR, 15, ATTENTION), (ERROR, 15, ATTENTION), (MISSING, 0, None), (HUNG, 14, NORM)
    )
    correlation.ranks[2].last_checkpoint_qualified = None
    assert last_of(correlation.ranks, chosen, inside) == last
