"""The ranks whose process-group watchdog gave up on another work than most ranks' did.

When a collective times out, each rank's watchdog names the work it gave up on:

    [rank0]:[E ProcessGroupNCCL.cpp:737] [Rank 0] Watchdog caught collective operation
    timeout: WorkNCCL(SeqNum=3742816, OpType=REDUCE, Timeout(ms)=1800000) ran for ...

(`WorkHCCL` on Ascend; newer torch adds a flight-recorder line naming the same sequence
number, `Timeout at NCCL work: 7487, ...`). The sequence number counts a process group's
collectives, and ranks running one program issue them in one order, so the ranks of a group
time out on the same number with the same op type. When most do and a few do not, the few
broke step: at another number they issued one collective more or fewer than the rest, and at
the same number in another op they called a different collective there (a desync).

Only numbers of one process group are compared (a `[PG ...]` prefix names it; lines without
one are compared with each other, leaving out a rank whose lines name two numbers), and only
a majority of at least three ranks is a pack:
one rank's line, or an even split, singles nobody out. The line forms are data
(`watchdog_works` in `knowledge/collectives.yaml`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from analyzers.causal.chain import Blame, CausalChain
from analyzers.classify.collective_frames import named_work
from analyzers.core.phrases import Said, plain, ranks_said, say, several

MIN_PACK = 3  # ranks whose works are compared: two ranks have no majority to stand apart from


@dataclass(frozen=True, slots=True)
class TimedOutWork:
    """The work one rank's watchdog gave up on, in one process group."""

    rank: int
    seq: int
    op: str | None = None
    group: str | None = None


def works_in_chain(chain: CausalChain) -> list[TimedOutWork]:
    """The works the chain's waits name, each rank's lines in the order they were written."""
    items = sorted(
        {id(item): item for item in [*chain.top, *chain.waited_behind, *chain.cascades]}.values(),
        key=lambda item: (item.order, item.event.line),
    )
    return timed_out_works(
        (item.rank, item.event.message or item.event.text)
        for item in items
        if item.rank is not None
    )


def timed_out_works(lines: Iterable[tuple[int, str]]) -> list[TimedOutWork]:
    """Each rank's work per process group, from (rank, line) pairs; a later line of the same
    rank and group naming the same number adds the op type it lacked. A rank whose lines name
    two numbers in one group is left out of it: a watchdog takes its process down at the
    first work it gives up on, so two numbers are works of two groups whose lines did not say
    which (older torch prints no `[PG ...]`), and neither can be compared."""
    found: dict[tuple[int, str | None], TimedOutWork] = {}
    torn: set[tuple[int, str | None]] = set()
    for rank, line in lines:
        named = named_work(line)
        if named is None:
            continue
        key = (rank, named.group)
        known = found.get(key)
        if known is None:
            found[key] = TimedOutWork(rank, named.seq, named.op, named.group)
        elif known.seq != named.seq:
            torn.add(key)
        elif known.op is None and named.op is not None:
            found[key] = TimedOutWork(rank, known.seq, named.op, known.group)
    return [work for key, work in found.items() if key not in torn]


def out_of_step(works: Sequence[TimedOutWork]) -> Blame | None:
    """The few ranks whose work differs from the pack's, when every process group whose
    works single someone out singles out the same ranks."""
    groups: dict[str | None, list[TimedOutWork]] = defaultdict(list)
    for work in works:
        groups[work.group].append(work)
    named = [
        found
        for _, members in sorted(groups.items(), key=lambda kv: _group_order(kv[1], kv[0]))
        if (found := _apart_in(members)) is not None
    ]
    if not named or any(found.ranks != named[0].ranks for found in named):
        return None
    return named[0]


def _group_order(members: Sequence[TimedOutWork], group: str | None) -> tuple[bool, str]:
    """Groups whose lines name op types first: their clause says more."""
    return (not any(work.op for work in members), group or "")


def _apart_in(works: Sequence[TimedOutWork]) -> Blame | None:
    """Within one group: the ranks at another number than most, else the ranks in another op
    than most at the one number they all share."""
    if len(works) < MIN_PACK:
        return None
    split = _against_majority(works, lambda work: work.seq)
    if split is None:
        return None
    if split[0]:
        return _blame(*split, "waited.work_apart")
    known = [work for work in works if work.op is not None]
    if len(known) < MIN_PACK:
        return None
    split = _against_majority(known, lambda work: work.op)
    return _blame(*split, "waited.work_desync") if split and split[0] else None


def _against_majority(
    works: Sequence[TimedOutWork], key: Callable[[TimedOutWork], object]
) -> tuple[list[TimedOutWork], list[TimedOutWork]] | None:
    """The works whose `key` differs from the one more than half of them share, and those
    that share it; None when no value holds a majority."""
    value, count = Counter(key(work) for work in works).most_common(1)[0]
    if count * 2 <= len(works):
        return None
    return [w for w in works if key(w) != value], [w for w in works if key(w) == value]


def _blame(odd: Sequence[TimedOutWork], pack: Sequence[TimedOutWork], key: str) -> Blame:
    ranks = sorted(work.rank for work in odd)
    why = say(
        key,
        work=_works_said(odd),
        common=_works_said(pack),
        op=", ".join(sorted({work.op or "?" for work in odd})),
        common_op=", ".join(sorted({work.op or "?" for work in pack})),
        seq=pack[0].seq,
        others=ranks_said(work.rank for work in pack),
        many=several(ranks),
    )
    return Blame(ranks, why)


def _works_said(works: Sequence[TimedOutWork]) -> Said:
    """`BROADCAST (SeqNum 76)`, or `SeqNum 76` when the lines name no single op."""
    said = []
    for seq in sorted({work.seq for work in works}):
        ops = {work.op for work in works if work.seq == seq}
        op = next(iter(ops)) if len(ops) == 1 else None
        said.append(f"{op} (SeqNum {seq})" if op else f"SeqNum {seq}")
    return plain(", ".join(said))
