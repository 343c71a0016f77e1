"""The ranks that built their process groups in another order than the others.

torch names each group a rank makes by how many groups that rank made before it, so every rank
has to call `new_group` for the same rank lists in the same order. A rank that builds them in
another order (its own pair first, a loop over a dict whose order differs) lands in a group of
another name than its partners: the set-ups wait for peers that never come, and the job ends
in store or collective timeouts on some ranks while others hang inside `new_group` and print
nothing. The silent ranks look like the ones the others waited for, but it is the rank whose
group lines (`creating group [2, 3]` before `creating group [0, 1]`, kept apart from the
checkpoints in `Timeline.groups`) come in another order than most ranks' that broke the set-up.
"""

from __future__ import annotations

from collections import Counter

from analyzers.causal.chain import Blame
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import say, several
from analyzers.core.types import Correlation, RankStatus

MIN_RANKS = 3  # ranks that said which groups they built: two cannot outvote each other


def built_in_other_order(correlation: Correlation | None) -> Blame | None:
    """The few ranks whose k-th group differs from most ranks' k-th, at the first position
    where the ranks' orders part, when the group they built there is one the others build
    too (an order, not another layout)."""
    if correlation is None or not isinstance(correlation.timeline, Timeline):
        return None
    missing = {r.rank for r in correlation.ranks if r.status == RankStatus.MISSING}
    orders = {r: seq for r, seq in correlation.timeline.groups.items() if r not in missing}
    if len(orders) < MIN_RANKS:
        return None
    for k in range(max(len(seq) for seq in orders.values())):
        at = {r: seq[k] for r, seq in orders.items() if len(seq) > k}
        if len(set(at.values())) == 1:
            continue
        common, count = Counter(at.values()).most_common(1)[0]
        odd = sorted(r for r, group in at.items() if group != common)
        if count * 2 <= len(at) or len(odd) * 2 >= len(at) or len(at) < MIN_RANKS:
            return None
        others = {g for r, seq in orders.items() if r not in odd for g in seq}
        if any(at[r] not in others for r in odd):
            return None
        return Blame(odd, say("blame.group_order", many=several(odd)))
    return None
