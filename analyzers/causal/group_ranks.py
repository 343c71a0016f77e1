"""Ranks a line numbers inside a process group, mapped to the job's global ranks.

torch numbers the members of a group made with `new_group` from 0 in the order of the list
it was given, and c10d's reports on that group use those numbers: the monitored barrier of the
expert group [1, 3, 5, 7] is run by its rank 0 (global rank 1), which reports `[Rank 0]: Rank 2
failed to pass monitoredBarrier` when global rank 5 did not come, while its members report
`Rank 1 successfully reached monitoredBarrier, but ...` (global rank 3). A signature states
such a writer's group rank (`group_rank`), and the file or tag the line came from states its
global rank: each such line is a point of the group's numbering.

Groups are laid out as evenly spaced ranks (a contiguous block has spacing 1, a strided set
its stride), so two points give the offset and the spacing; points from lines of several
groups (each group runs its own barrier) are weighed by how many agree on one layout with the
first error's writer. Where the writer's group rank is its global rank and no point says
otherwise, the group is the world (or starts at rank 0 with spacing 1) and nothing changes.
Where the writer's numbers are not global and no layout is agreed, the ranks named are not
global ranks at all, and none is named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from analyzers.classify.matches import Classified


def in_world(
    named: Sequence[int], first: Classified, writers: Sequence[Classified], world: int | None
) -> list[int] | None:
    """The global ranks of the group ranks `named` by the first error, or None when the
    group's numbering cannot be told (the named numbers are then no global ranks)."""
    origin = _point(first)
    if origin is None:
        return list(named)
    layouts: Counter[tuple[int, int]] = Counter()
    points = {_point(item) for item in writers}  # one vote per writer, however many lines it wrote
    for point in points:
        if point is None or point[0] == origin[0]:
            continue
        spacing, rest = divmod(point[1] - origin[1], point[0] - origin[0])
        offset = origin[1] - spacing * origin[0]
        if rest == 0 and spacing >= 1 and offset >= 0:
            layouts[(offset, spacing)] += 1
    best = layouts.most_common(2)
    if best and (len(best) == 1 or best[0][1] > best[1][1]):
        offset, spacing = best[0][0]
    elif origin[0] == origin[1]:
        return list(named)
    else:
        return None
    mapped = sorted({offset + spacing * rank for rank in named})
    if world is not None and any(rank >= world for rank in mapped):
        return None
    return mapped


def _point(item: Classified) -> tuple[int, int] | None:
    """(group rank, global rank) of the line's writer, when both are known."""
    if item.rank is None:
        return None
    own = next((m.group_rank for m in item.matches if m.group_rank is not None), None)
    return None if own is None else (own, item.rank)
