"""The one member of a sub-group that went on while its partners waited in the group.

`group_hole` is a table of ranks stopped together in an eight-rank world and the one rank
the smallest group holding them lacks; `left_group` reads eight ranks of a MoE decode, the
ranks behind stopped at one attention line while the pack went on to layer 2.
"""

from __future__ import annotations

import pytest

from analyzers.causal.group_holes import group_hole, left_group
from analyzers.core.types import Correlation, RankStatus, RankSummary

ERROR, OK = RankStatus.ERROR, RankStatus.OK
STUCK = "decode step 1 / layer 1 / attention passed"
LATER = "decode step 1 / layer 2 / norm passed"


@pytest.mark.parametrize(
    ("members", "hole"),
    [
        pytest.param({4, 5, 7}, (6, "4-7"), id="aligned-block"),
        pytest.param({2, 3}, None, id="a-full-pair"),
        pytest.param({1, 3, 7}, (5, "[1, 3, 5, 7]"), id="strided-set"),
        pytest.param({1, 3}, None, id="two-holes"),
        pytest.param({0, 1, 2, 3, 4, 5, 6}, None, id="the-whole-world-is-no-sub-group"),
    ],
)
def test_group_hole_finds_the_one_rank_the_smallest_group_lacks(
    members: set[int], hole: tuple[int, str] | None
) -> None:
    assert group_hole(members, 8) == hole


def moe(behind: dict[int, tuple[int, str]], hole_status: RankStatus = ERROR) -> Correlation:
    """Eight ranks; those in `behind` stopped short of the pack, with (count, last)."""
    rows = [behind.get(r, (22, LATER)) for r in range(8)]
    summaries = [
        RankSummary(r, hole_status if r == 6 else ERROR, last.split(" / ")[-1], None, count, last)
        for r, (count, last) in enumerate(rows)
    ]
    return Correlation(ranks=summaries, timeline={}, world_size=8, behind_ranks=sorted(behind))


def test_the_member_that_went_on_from_its_group_is_blamed() -> None:
    blame = left_group(moe({4: (19, STUCK), 5: (19, STUCK), 7: (19, STUCK)}), True)
    assert blame is not None
    assert blame.ranks == [6]
    assert blame.why.en == (
        f"ranks 4, 5, 7 of its group 4-7 stopped together at '{STUCK}' while it and the other "
        "ranks went on: it never entered the group's collective they waited in"
    )


@pytest.mark.parametrize(
    ("behind", "hole_status"),
    [
        pytest.param({4: (19, STUCK), 5: (19, STUCK)}, ERROR, id="full-block"),
        pytest.param({4: (19, STUCK), 5: (18, LATER), 7: (19, STUCK)}, ERROR, id="apart-stops"),
        pytest.param({4: (19, STUCK), 5: (19, STUCK), 7: (19, STUCK)}, OK, id="hole-finished"),
        pytest.param({4: (19, STUCK)}, ERROR, id="one-rank-behind"),
    ],
)
def test_no_member_left_the_group(
    behind: dict[int, tuple[int, str]], hole_status: RankStatus
) -> None:
    assert left_group(moe(behind, hole_status), True) is None
