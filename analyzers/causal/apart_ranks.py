"""The ranks set apart by where they stopped, and the clause that says so.

The correlation marks the few ranks ahead of or behind the pack (`ahead_ranks`,
`behind_ranks`); with no pack to compare against, the ranks that logged the fewest
checkpoints stand out instead. Either answer says where each side got to, when each side
agrees on one checkpoint::

    it stopped at 'layer 3 / norm passed' while the others went on to 'layer 3 / MoE passed'
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import Blame
from analyzers.causal.stalled import fewest_checkpoints
from analyzers.core.phrases import Said, say, several
from analyzers.core.types import Correlation, RankStatus, RankSummary


def apart(correlation: Correlation, size_stated: bool) -> Blame | None:
    """The few ranks ahead of or behind the pack; many outliers single nobody out."""
    outliers = sorted(set(correlation.ahead_ranks) | set(correlation.behind_ranks))
    if not outliers or len(outliers) * 2 >= len(correlation.ranks):
        return None
    return Blame(outliers, apart_why(correlation, outliers))


def first_stopped(correlation: Correlation, size_stated: bool) -> Blame | None:
    """With no pack to compare against, the ranks that logged the fewest checkpoints."""
    ranks = fewest_checkpoints(correlation, [r.rank for r in correlation.ranks])
    return Blame(ranks, apart_why(correlation, ranks)) if ranks else None


def apart_why(correlation: Correlation, ranks: Sequence[int]) -> Said:
    """Where the blamed ranks stopped and where the others got to, when each side agrees."""
    mine = last_of(correlation.ranks, ranks, inside=True)
    theirs = last_of(correlation.ranks, ranks, inside=False)
    ahead = all(r in correlation.ahead_ranks for r in ranks)
    subject = say("apart.subject", many=several(ranks))
    if ahead:
        text = _said(mine, "apart.ran_on", "apart.ran_ahead", subject=subject)
        text += _said(theirs, "apart.others_stopped", "apart.of_others")
        return text + say("apart.skipping")
    text = _said(mine, "apart.stopped_at", "apart.stopped_early", subject=subject)
    if theirs:
        text += say("apart.others_went_on", checkpoint=theirs)
    return text


def _said(checkpoint: str | None, named: str, unnamed: str, **fields: Said) -> Said:
    """The phrase that names the checkpoint when there is one, else the one that cannot."""
    if checkpoint:
        return say(named, checkpoint=checkpoint, **fields)
    return say(unnamed, **fields)


def last_of(ranks: Sequence[RankSummary], chosen: Sequence[int], inside: bool) -> str | None:
    """The last checkpoint the chosen ranks (or the others) share, if they agree on one."""
    lasts = {
        r.last_checkpoint_qualified or r.last_checkpoint
        for r in ranks
        if (r.rank in chosen) == inside and r.status != RankStatus.MISSING
    }
    return lasts.pop() if len(lasts) == 1 and None not in lasts else None
