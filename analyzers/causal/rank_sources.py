"""The one rank, of those left waiting in a broadcast, that logged another source for it.

Every member of a broadcast has to pass the same `src`. A rank that passes another one (its
own rank, believing it holds the data) leaves the broadcast unmatched: the ranks its tree
feeds wait in it with the rank itself, the others go on to their next collective, and all of
them time out (docs/labelling.md, "Ranks waiting in different collectives"). The frames set
the ranks still in the broadcast apart, not which of them named the wrong source. Jobs that
log the source (`broadcast prompt ids from src rank 0`, `formats.source_said`) say it: when
at least three ranks logged the same statement and all but one named the same source, the
one is the culprit, as long as it is one of the ranks the waits single out. Sources split
otherwise (sub-groups broadcasting from their own leaders) name no one.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import Blame
from analyzers.causal.rank_dtypes import odd_rank_stated
from analyzers.core.phrases import say
from analyzers.core.types import FileScan


def narrowed_to_source(found: Blame, scans: Sequence[FileScan]) -> Blame:
    """`found` narrowed to the one rank of it that logged another broadcast source than its
    peers; `found` itself when it names fewer than two ranks or no such rank is among them."""
    if len(found.ranks) < 2:
        return found
    odd = odd_rank_stated(scans, "source_said")
    if odd is None or odd[0] not in found.ranks:
        return found
    rank, lone, common, words = odd
    return Blame([rank], say("blame.rank_source", source=lone, common=common, words=words))
