"""Ranks stuck in a broadcast, and the one rank that logged another source for it.

docs/labelling.md#ranks-waiting-in-different-collectives: every member of one broadcast has
to pass the same `src`. A rank that passes another one (its own rank, believing it holds the
data) leaves gloo's broadcast unmatched: the ranks it feeds wait in the broadcast, the others
go on to their next collective, and all of them time out. The frames set the ranks still in
the broadcast apart, but not which of them named the wrong source. When the ranks logged the
source they broadcast from (`broadcast prompt ids from src rank 0`) and one alone named
another, that rank is the culprit. Values are our own, in torch 2.13's and gloo's wording.
"""

from __future__ import annotations

from tests.analyzers.causal.test_exchanges import RECV, SEND
from tests.analyzers.excerpts import diagnose_files

C10D = "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py"


def rank_log(rank: int, src: int | None, call: str, timeout: str) -> str:
    lines = [
        f"init process group: backend=gloo rank={rank} world_size=6 timeout=10s",
        f"weights loaded: embed rows [{rank * 100}, {rank * 100 + 100}) experts=[{rank}]",
        "load weights passed",
    ]
    if src is not None:
        lines.append(f"broadcast prompt ids from src rank {src}")
    if call == "all_reduce":
        lines.append("prefill start: 8 tokens")
    lines += [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/srv/infer/infer.py", line 212, in run_model',
        f"[rank{rank}]:     dist.{call}(ids)",
        f'[rank{rank}]:   File "{C10D}", line 2871, in {call}',
        f"[rank{rank}]:     work.wait()",
        f"[rank{rank}]: RuntimeError: {timeout}",
    ]
    return "\n".join(lines) + "\n"


def job(sources: dict[int, int | None], stuck: set[int]) -> dict[str, str]:
    """Ranks in `stuck` time out sending in the broadcast, the others in the next all_reduce."""
    return {
        f"job-b7c2/log_{rank}.log": rank_log(
            rank,
            src,
            "broadcast" if rank in stuck else "all_reduce",
            SEND if rank in stuck else RECV,
        )
        for rank, src in sources.items()
    }


def test_the_rank_that_logged_another_broadcast_source_is_the_culprit() -> None:
    sources: dict[int, int | None] = {rank: 0 for rank in range(6)} | {3: 3}
    diagnosis = diagnose_files(job(sources, stuck={1, 3}))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [3]
    assert "src rank 3" in (diagnosis.culprit_reason or "")


def test_without_the_statements_the_ranks_left_in_the_broadcast_stay_named() -> None:
    sources: dict[int, int | None] = {rank: None for rank in range(6)}
    assert diagnose_files(job(sources, stuck={1, 3})).culprit_ranks == [1, 3]


def test_sub_groups_that_broadcast_from_their_own_leaders_single_no_one_out() -> None:
    sources: dict[int, int | None] = {0: 0, 1: 0, 2: 0, 3: 3, 4: 3, 5: 3}
    assert diagnose_files(job(sources, stuck={1, 3})).culprit_ranks == [1, 3]


def test_a_lone_source_outside_the_ranks_left_behind_does_not_replace_them() -> None:
    sources: dict[int, int | None] = {rank: 0 for rank in range(6)} | {5: 5}
    assert diagnose_files(job(sources, stuck={1, 3})).culprit_ranks == [1, 3]
