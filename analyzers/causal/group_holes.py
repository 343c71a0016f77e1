"""The one member of a sub-group that went on while its partners waited in the group.

Ranks that stopped together at a checkpoint the pack passed waited in no collective of the
whole world but in one of a group that holds them (an expert or tensor-parallel group,
`new_group([1, 3, 5, 7])`); when that group lacks exactly one rank, and that rank went on
with the pack, it never entered the group's collective::

    ranks 4, 5, 7 of its group 4-7 stopped together at 'decode step 1 / layer 1 / attention
    passed' while it and the other ranks went on: it never entered the group's collective
    they waited in

`causal.wait_places` asks `group_hole` too, for the ranks that lost their peers.
"""

from __future__ import annotations

from analyzers.causal.chain import Blame
from analyzers.core.phrases import say
from analyzers.core.types import Correlation, RankStatus


def left_group(correlation: Correlation, size_stated: bool) -> Blame | None:
    """The one rank that went on from a sub-group the ranks behind were waiting in. Several
    ranks stopped together at one checkpoint that the pack passed, so what they waited in was
    no collective of the whole world but one of a group that includes them (an expert or
    tensor-parallel group): an aligned block of a power-of-two size, or, when no such block
    fits, a strided set (every s-th rank from one offset, `new_group([1, 3, 5, 7])`, the
    stride dividing the world). When the smallest such group that holds them all lacks
    exactly one rank, and that rank is with the pack, it is the member that never entered the
    group's collective. A full group behind (the whole group waited for something outside
    it) and a single rank behind say nothing of a group."""
    behind = set(correlation.behind_ranks)
    if len(behind) < 2 or correlation.ahead_ranks:
        return None
    summaries = {r.rank: r for r in correlation.ranks}
    stops = {(summaries[r].checkpoints, summaries[r].last_checkpoint_qualified) for r in behind}
    if len(stops) != 1:
        return None
    everyone = len(correlation.ranks)
    found = group_hole(behind, everyone)
    if found is None:
        return None
    hole_rank, block = found
    hole = summaries.get(hole_rank)
    if hole is None or hole.status in (RankStatus.MISSING, RankStatus.OK):
        return None
    if hole.checkpoints <= next(iter(stops))[0]:
        return None
    why = say(
        "waited.group_hole",
        ranks=", ".join(str(r) for r in sorted(behind)),
        checkpoint=next(iter(stops))[1] or "",
        block=block,
    )
    return Blame([hole_rank], why)


def group_hole(members: set[int], everyone: int) -> tuple[int, str] | None:
    """(the one rank missing, the group as said) for the smallest sub-group that holds every
    rank of `members` and lacks exactly one: an aligned power-of-two block, else a strided
    set. None when no such group lacks exactly one rank."""
    return _aligned_block(members, everyone) or _strided_set(members, everyone)


def _aligned_block(behind: set[int], everyone: int) -> tuple[int, str] | None:
    """The one rank missing from the smallest aligned power-of-two block holding `behind`."""
    size = 1
    while min(behind) // size != max(behind) // size:
        size *= 2
    start = min(behind) // size * size
    holes = [r for r in range(start, start + size) if r not in behind]
    if len(holes) != 1 or size >= everyone:
        return None
    return holes[0], f"{start}-{start + size - 1}"


def _strided_set(behind: set[int], everyone: int) -> tuple[int, str] | None:
    """The one rank missing from the smallest strided set (ranks `o, o + s, ...` below the
    world size, `s` a divisor of it) that holds every rank in `behind`."""
    for stride in range(everyone // 2, 1, -1):
        if everyone % stride or len({r % stride for r in behind}) != 1:
            continue
        members = range(min(behind) % stride, everyone, stride)
        holes = [r for r in members if r not in behind]
        if len(holes) != 1:
            return None
        return holes[0], "[" + ", ".join(str(r) for r in members) + "]"
    return None
