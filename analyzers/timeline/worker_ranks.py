"""Give ranks to serving-framework events whose process tag needs the whole bundle to read
(and to the stacks such a process dumped, `formats.stack_dump`).

A line tagged `(Worker_TP2 pid=9)` is rank 2 only if the job has a single data-parallel group,
and `(Worker_DP1_TP2 pid=9)` is rank `1 * tp_size + 2` only if the TP size is known. Both are
facts about the bundle, not the line, so they are settled here, after every file is scanned
and before ranks are correlated (`formats.worker_tags` has the rules).

The layout is read conservatively, because a wrong rank is worse than none:

- some DP group other than 0 exists if any tag shows one (engine cores `EngineCore_DP1`
  included) or a configuration line states a data-parallel size above 1;
- the TP size is the one configuration value stated (`tensor_parallel_size=8`; two different
  values mean two jobs: unknown); else what EP indices imply (`Worker_DP1_TP2_EP6`: 4); else
  the highest TP index seen + 1, only when every index from 0 up to it was seen. Any TP index
  at or above the size found makes it unknown.

A process that states its own rank as it starts (`(Worker pid=9) ... rank=2 ...`) is given that
rank, before any index: a tag with no index has no other way to one, and an engine process
that is not a rank by its name (`EngineCore_DP1`) is one when it says so. A statement is used
only when it is the tag's one rank and no other tag states the same rank.

The supervisor that started the workers reports on them by pid in its own lines, untagged or
behind a tag of a process that is no worker (a Ray actor's, `(RayWorkerWrapper pid=7, ...)`):
`Worker VllmWorkerProcess pid 40122 died, exit code: -11`. Such an error line is given the
rank of the worker whose tag carries that pid, when its message (its wrappers peeled) names
exactly one pid and that worker's rank is known.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from analyzers.checkpoints.track import NO_RANK, CheckpointTrack
from analyzers.core.types import EventKind, FileScan
from analyzers.formats.stack_dump import FACT as STACKS
from analyzers.formats.worker_tags import (
    HOST_FRAMEWORK,
    SRUN_FRAMEWORK,
    Framework,
    Layout,
    parse_tag,
    rank_of,
)


def assign_worker_ranks(scans: Sequence[FileScan]) -> Layout | None:
    """Set `event.rank` where only the bundle's layout could tell it; the layout, if any tag."""
    tags = _tags(scans)
    if not tags:
        return None
    layout = bundle_layout(scans, tags)
    stated = stated_ranks(scans)
    for tag, rank in _ranks_torch_tagged(scans).items():
        if tag not in stated and rank not in stated.values():
            stated[tag] = rank
    for scan in scans:
        for event in scan.events:
            if event.rank is None and event.worker is not None:
                event.rank = _rank(event.worker, layout, stated)
        track = scan.facts.get("checkpoints")
        if isinstance(track, CheckpointTrack) and track.workers:
            _rank_checkpoints(track, layout, stated)
        for stack in scan.facts.get(STACKS) or ():
            if stack.get("rank") is None and stack.get("worker"):
                stack["rank"] = _rank(stack["worker"], layout, stated)
    _rank_supervisor_lines(scans, _pid_ranks(scans, layout, stated))
    return layout


TASK_PREFIXES = (f"{SRUN_FRAMEWORK}:", f"{HOST_FRAMEWORK}:")
_NAMED_PID = re.compile(r"\bpid[=: ]\s?(\d{1,9})\b")


def _pid_ranks(
    scans: Sequence[FileScan], layout: Layout, stated: dict[str, int]
) -> dict[int, set[int]]:
    """The ranks of the workers each pid tagged, from the tags seen in file heads and on events."""
    ranks: dict[int, set[int]] = {}
    for scan in scans:
        for tag, pids in ((scan.facts.get("worker_tags") or {}).get("pids") or {}).items():
            rank = _rank(tag, layout, stated)
            if rank is not None:
                for pid in pids:
                    ranks.setdefault(pid, set()).add(rank)
        for event in scan.events:
            if event.process and event.rank is not None:
                pid = event.process.rpartition("pid=")[2]
                if pid.isdigit():
                    ranks.setdefault(int(pid), set()).add(event.rank)
    return ranks


def _rank_supervisor_lines(scans: Sequence[FileScan], ranks: dict[int, set[int]]) -> None:
    if not ranks:
        return
    for scan in scans:
        for event in scan.events:
            if event.kind != EventKind.ERROR or event.rank is not None or event.worker:
                continue
            pids = {int(found) for found in _NAMED_PID.findall(event.message or event.text)}
            if len(pids) == 1 and len(ranks.get(next(iter(pids)), ())) == 1:
                (event.rank,) = ranks[next(iter(pids))]


def stated_ranks(scans: Sequence[FileScan]) -> dict[str, int]:
    """Each tag's stated rank, where it stated one rank that no other tag states."""
    said: dict[str, set[int]] = {}
    for scan in scans:
        for tag, ranks in ((scan.facts.get("worker_tags") or {}).get("stated") or {}).items():
            said.setdefault(tag, set()).update(ranks)
    single = {tag: next(iter(ranks)) for tag, ranks in said.items() if len(ranks) == 1}
    claims = Counter(single.values())
    return {tag: rank for tag, rank in single.items() if claims[rank] == 1}


def _ranks_torch_tagged(scans: Sequence[FileScan]) -> dict[str, int]:
    """An `srun --label` task (or a pdsh host) whose own lines carry torch's `[rankN]:` prefix
    (the traceback torch writes when a rank dies) on every event it wrote, with one N only, that
    no other task's lines carry: the task is that rank, as if its start line had said so. A task
    relaying several ranks is a node's; one whose other errors name no rank (a paste that kept
    one tagged line among untagged ones) states nothing."""
    said: dict[str, set[int | None]] = {}
    for scan in scans:
        for event in scan.events:
            worker = event.worker
            if worker and worker.startswith(TASK_PREFIXES):
                said.setdefault(worker, set()).add(event.rank)
    single = {
        tag: next(iter(ranks))
        for tag, ranks in said.items()
        if len(ranks) == 1 and None not in ranks
    }
    claims = Counter(single.values())
    return {tag: rank for tag, rank in single.items() if claims[rank] == 1}


def _rank(tag: str, layout: Layout, stated: dict[str, int]) -> int | None:
    rank = stated.get(tag)
    return rank if rank is not None else rank_of(tag, layout)


def _rank_checkpoints(track: CheckpointTrack, layout: Layout, stated: dict[str, int]) -> None:
    """Checkpoint lines carry the same process tags as the events."""
    ranks = [_rank(tag, layout, stated) for tag in track.workers]
    for index, worker in enumerate(track.worker):
        if worker != NO_RANK and track.rank[index] == NO_RANK:
            rank = ranks[worker]
            if rank is not None:
                track.set_rank(index, rank)


def bundle_layout(scans: Sequence[FileScan], tags: set[str]) -> Layout:
    sizes: dict[str, set[int]] = {"tp": set(), "dp": set()}
    tp_is_rank: set[str] = set()
    for scan in scans:
        found = scan.facts.get("worker_tags") or {}
        for key, values in (found.get("sizes") or {}).items():
            sizes.setdefault(key, set()).update(values)
        tp_is_rank.update(found.get("tp_is_rank") or ())
    parsed = [parse_tag(tag) for tag in tags]
    dp_above_zero = any(index.get("DP", 0) > 0 for _, index in parsed) or any(
        size > 1 for size in sizes["dp"]
    )
    return Layout(
        tp_size=_tp_size(sizes["tp"], parsed),
        dp_above_zero=dp_above_zero,
        tp_is_rank=frozenset(tp_is_rank),
    )


def _tags(scans: Sequence[FileScan]) -> set[str]:
    tags: set[str] = set()
    for scan in scans:
        tags.update((scan.facts.get("worker_tags") or {}).get("tags") or ())
        tags.update(event.worker for event in scan.events if event.worker is not None)
        track = scan.facts.get("checkpoints")
        if isinstance(track, CheckpointTrack):
            tags.update(track.workers)
    return tags


def _tp_size(
    stated: set[int], parsed: Iterable[tuple[Framework | None, dict[str, int]]]
) -> int | None:
    parsed = list(parsed)
    seen = {index["TP"] for _, index in parsed if "TP" in index}
    implied = {
        _implied_tp_size(index) for framework, index in parsed if _ep_is_rank(framework, index)
    }
    implied.discard(None)
    if stated:
        size = next(iter(stated)) if len(stated) == 1 else None
    elif implied:
        size = next(iter(implied)) if len(implied) == 1 else None
    elif seen and seen == set(range(max(seen) + 1)) and max(seen) > 0:
        size = max(seen) + 1
    else:
        size = None
    if size is None or (seen and max(seen) >= size) or (implied and implied != {size}):
        return None
    return size


def _ep_is_rank(framework: Framework | None, index: dict[str, int]) -> bool:
    return framework is not None and framework.ep_is_rank and not framework.unsafe & index.keys()


def _implied_tp_size(index: dict[str, int]) -> int | None:
    """`ep = dp * tp_size + tp` solved for tp_size (needs DP > 0 and both other indices)."""
    dp, tp, ep = index.get("DP", 0), index.get("TP"), index.get("EP")
    if dp == 0 or tp is None or ep is None or (ep - tp) % dp:
        return None
    size = (ep - tp) // dp
    return size if size > tp else None
