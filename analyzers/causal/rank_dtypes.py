"""The one rank that logged another dtype than its peers.

gloo's size check aborts the rank that received more than it posted and names no sender, so
the line alone cannot say whether the sender sent too much or the receiver posted too little
(docs/labelling.md, "A rank that aborts on what a peer sent"). The byte counts of a collective
differ between ranks most simply when one rank runs it in another dtype (a bfloat16 gradient
sync among float32 peers). Jobs state that dtype as they start (`gradient sync dtype
float32`): when at least three ranks logged the same statement (`formats.dtype_said`, keyed by
its words) and all of them but one named the same dtype, the one is the culprit, whether it
aborted (its narrower buffer received too much) or its neighbour did (its wider one sent too
much). Statements that split the ranks otherwise, or that single out different ranks, name no
one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from analyzers.core.types import FileKind, FileScan

MIN_RANKS = 3  # with two, neither rank is the odd one out


def odd_dtype_rank(scans: Sequence[FileScan]) -> tuple[int, str, str, str] | None:
    """(rank, its dtype, the others' dtype, the statement's words) for the rank that alone
    stated another dtype, when the statements single out exactly one rank."""
    return odd_rank_stated(scans, "dtype_said")


def odd_rank_stated(scans: Sequence[FileScan], fact: str) -> tuple[int, str, str, str] | None:
    """(rank, its value, the others' value, the statement's words) for the rank that alone
    stated another value than its peers in one of the head statements kept under `fact`
    (`[key, value]` pairs), when the statements single out exactly one rank."""
    stated: dict[str, dict[int, set[str]]] = {}
    for scan in scans:
        rank = scan.info.rank
        said = scan.facts.get(fact)
        if rank is None or not said or scan.info.kind == FileKind.LAUNCHER:
            continue
        for key, value in said:
            stated.setdefault(key, {}).setdefault(rank, set()).add(value)
    odd: dict[int, tuple[str, str, str]] = {}
    for key, by_rank in stated.items():
        if len(by_rank) < MIN_RANKS or any(len(values) != 1 for values in by_rank.values()):
            continue
        counts = Counter(next(iter(values)) for values in by_rank.values())
        if len(counts) != 2:
            continue
        (common, many), (lone, few) = counts.most_common()
        if few != 1 or many < MIN_RANKS - 1:
            continue
        rank = next(r for r, values in by_rank.items() if lone in values)
        odd.setdefault(rank, (lone, common, key))
    if len(odd) != 1:
        return None
    rank, (lone, common, key) = next(iter(odd.items()))
    return rank, lone, common, key
