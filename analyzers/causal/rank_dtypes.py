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

A rank that runs in another dtype than it was meant to often says so only where it differs:
a warning that it converts or keeps a tensor in another precision (`warning: layer 1
attention.o is torch.float64 in the checkpoint; casting qkv to match`), which its peers, all
in the default dtype, have no reason to print. When no statement is shared, a dtype stated on
a warning line by exactly one rank, in a job where at least three ranks wrote logs of their
own, singles that rank out the same way. A warning that two ranks print, or a job whose other
ranks wrote no log, names no one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from analyzers.core.types import FileKind, FileScan

MIN_RANKS = 3  # with two, neither rank is the odd one out


WARNING_WORDS = ("warning", "warn")  # a key holding one of these was stated as a warning


def odd_dtype_rank(scans: Sequence[FileScan]) -> tuple[int, str, str, str] | None:
    """(rank, its dtype, the others' dtype, the statement's words) for the rank that alone
    stated another dtype, when the statements single out exactly one rank; the others' dtype
    is empty when the rank alone warned of its dtype (`lone_dtype_warning`)."""
    return odd_rank_stated(scans, "dtype_said") or lone_dtype_warning(scans)


def lone_dtype_warning(scans: Sequence[FileScan]) -> tuple[int, str, str, str] | None:
    """(rank, dtype, "", the warning's words) for the one rank that stated a dtype on a
    warning line, when at least three ranks wrote logs of their own and no other rank warned
    of a dtype."""
    ranks: set[int] = set()
    warned: dict[int, tuple[str, str]] = {}
    for scan in scans:
        rank = scan.info.rank
        if rank is None or scan.info.kind == FileKind.LAUNCHER:
            continue
        ranks.add(rank)
        for key, value in scan.facts.get("dtype_said") or ():
            if any(word.endswith(WARNING_WORDS) for word in key.split()):
                warned.setdefault(rank, (value, key))
    if len(ranks) < MIN_RANKS or len(warned) != 1:
        return None
    rank, (value, key) = next(iter(warned.items()))
    return rank, value, "", key


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
