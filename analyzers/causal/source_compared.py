"""Checks that compare every rank with one reference rank, and which side is the odd one.

Some start-up checks do not compare ranks pairwise: one rank (process 0) broadcasts its
values and every other rank compares its own with them, raising only when they differ (DDP's
parameter shape check: `... appears not to match sizes of the same param in process 0`).
Every line names the reference, whichever side built the odd model, so the name alone
decides nothing. The writers are the ranks that differ from the reference: when most of the
other ranks wrote the line, the reference is the odd one; when a few did, they are. An even
split singles no one out.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.classify.matches import Classified
from analyzers.core.types import Correlation, RankStatus


def odd_against_source(
    top: Sequence[Classified], first: Classified, correlation: Correlation | None
) -> list[int] | None:
    """The culprits a reference-compared check points at; None when the first error is not
    such a check, [] when its lines single no one out."""
    kinds = {m.signature.id for m in first.matches if m.signature.names_source and m.culprits}
    if not kinds:
        return None
    writers: set[int] = set()
    sources: set[int] = set()
    for item in top:
        for match in item.matches:
            if match.signature.id in kinds and match.culprits and item.rank is not None:
                writers.add(item.rank)
                sources.update(match.culprits)
    if len(sources) != 1:
        return []
    (source,) = sources
    writers.discard(source)
    present = set()
    if correlation is not None:
        present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    others = (present or writers) - {source}
    if not writers or not others:
        return []
    if 2 * len(writers) > len(others):
        return [source]
    if 2 * len(writers) < len(others):
        return sorted(writers)
    return []
