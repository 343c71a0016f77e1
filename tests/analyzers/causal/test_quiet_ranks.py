"""Ranks that stopped with no error of their own while their peers failed.

Each job is a few ranks of a decode as the rank comparison sees them: a status, a checkpoint
count, a last checkpoint and, for the node cases, the bundle files each rank wrote.
"""

from __future__ import annotations

import pytest

from analyzers.causal.quiet_ranks import one_node_folder, quiet_not_apart, silent
from analyzers.core.types import Correlation, RankStatus, RankSummary

ERROR, HUNG, OK = RankStatus.ERROR, RankStatus.HUNG, RankStatus.OK
NORM = "layer 3 / norm passed"
ATTENTION = "layer 3 / attention passed"


def job(*statuses: RankStatus, lasts: tuple[str, ...] = (), **facts: object) -> Correlation:
    summaries = [
        RankSummary(n, status, None, None, 14, lasts[n] if lasts else NORM)
        for n, status in enumerate(statuses)
    ]
    return Correlation(ranks=summaries, timeline={}, world_size=len(statuses), **facts)


def two_nodes(quiet_node: int) -> Correlation:
    """Eight ranks on two nodes, `node0/rank0.log` to `node1/rank7.log`; the ranks of
    `quiet_node` stopped without an error."""
    summaries = [
        RankSummary(
            r,
            HUNG if r // 4 == quiet_node else ERROR,
            "norm passed",
            None,
            14,
            NORM,
            files=[f"job/node{r // 4}/rank{r}.log"],
        )
        for r in range(8)
    ]
    return Correlation(ranks=summaries, timeline={}, world_size=8)


def test_one_quiet_rank_among_failed_peers_is_blamed_where_it_stopped() -> None:
    blame = silent(job(ERROR, HUNG, ERROR, ERROR), True)
    assert blame is not None
    assert blame.ranks == [1]
    assert blame.why.en == (
        f"it stopped without an error while the others failed, last at '{NORM}'"
    )


@pytest.mark.parametrize(
    ("statuses", "spared"),
    [
        pytest.param((ERROR, HUNG, HUNG, ERROR), (), id="half-quiet-in-no-node-folder"),
        pytest.param((OK, HUNG, ERROR, ERROR), (), id="beside-a-finished-rank"),
        pytest.param((ERROR, HUNG, ERROR, ERROR), (1,), id="stopped-by-its-launcher"),
    ],
)
def test_quiet_ranks_single_no_one_out(
    statuses: tuple[RankStatus, ...], spared: tuple[int, ...]
) -> None:
    assert silent(job(*statuses), True, frozenset(spared)) is None


def test_a_node_whose_ranks_all_went_quiet_went_away() -> None:
    blame = silent(two_nodes(1), True)
    assert blame is not None
    assert blame.ranks == [4, 5, 6, 7]
    assert blame.why.en.startswith(
        "every rank of job/node1/ stopped without an error while the other nodes' ranks failed"
    )


def test_one_node_folder_holds_the_quiet_ranks_files_and_no_other_ranks() -> None:
    assert one_node_folder(two_nodes(0), [0, 1, 2, 3]) == "job/node0/"
    assert one_node_folder(two_nodes(0), [0, 1]) is None


def test_the_quiet_rank_beside_one_that_failed_ahead_is_blamed() -> None:
    correlation = job(ERROR, ERROR, ERROR, HUNG, lasts=(NORM, NORM, ATTENTION, NORM))
    correlation.ahead_ranks = [2]
    blame = quiet_not_apart(correlation, True)
    assert blame is not None
    assert blame.ranks == [3]


@pytest.mark.parametrize(
    ("statuses", "ahead"),
    [
        pytest.param((ERROR, ERROR, ERROR, HUNG), [], id="no-outlier"),
        pytest.param((ERROR, ERROR, HUNG, HUNG), [2], id="the-outlier-is-quiet"),
    ],
)
def test_quiet_not_apart_needs_outliers_that_failed(
    statuses: tuple[RankStatus, ...], ahead: list[int]
) -> None:
    assert quiet_not_apart(job(*statuses, ahead_ranks=ahead), True) is None
