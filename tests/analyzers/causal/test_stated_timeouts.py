"""Ranks whose own start lines give a shorter process-group timeout than the rest.

docs/labelling.md#a-rank-started-with-a-shorter-timeout: one rank's launch gives it a shorter
timeout (`timeout=5s` while the others say `timeout=20s`); a peer that is slow to reach the
first barrier but well within the job's timeout makes that rank time out first, and the
others then lose it. The rank whose own timeout ran out and whose setting is the odd one is
the culprit, not the slow peer. Lines are torch 2.13's and gloo's real wording, in a
plain-print job's layout.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 5000ms for recv operation to complete"
)
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:26825. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF! "
    "\U0001f3d6\ufe0f"
)


def rank_log(rank: int, timeout: str, went_on: bool, error: str) -> str:
    lines = [
        f"init process group: backend=gloo rank={rank} world_size=4 "
        f"master=127.0.0.1:31081 timeout={timeout}",
        "building toy decoder: layers=4 hidden=32 experts=8 tp=4",
        f"weights loaded: experts=[{2 * rank}, {2 * rank + 1}]",
        "waiting for all ranks to finish loading weights",
    ]
    if went_on:
        lines += ["load weights passed", "prefill start: 8 tokens", " norm passed"]
    lines += [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/home/user/llm-infer/infer.py", line 213, in main',
        f"[rank{rank}]:     dist.barrier()",
        f"[rank{rank}]: {error}",
    ]
    return "\n".join(lines) + "\n"


def job(timeouts: dict[int, str]) -> dict[str, str]:
    went_on = {0: True, 1: False, 2: True, 3: False}
    errors = {0: CLOSED, 1: CLOSED, 2: CLOSED, 3: TIMEOUT}
    return {
        f"job-2fae/log_{rank}.log": rank_log(rank, timeouts[rank], went_on[rank], errors[rank])
        for rank in range(4)
    }


def test_the_rank_whose_shorter_timeout_ran_out_is_the_culprit() -> None:
    diagnosis = diagnose_files(job({0: "20s", 1: "20s", 2: "20s", 3: "5s"}))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [3]
    assert "timeout of 5s while the other ranks say 20s" in (diagnosis.root_cause or "")


def test_a_timeout_every_rank_shares_leaves_the_slow_rank_blamed_too() -> None:
    diagnosis = diagnose_files(job({0: "5s", 1: "5s", 2: "5s", 3: "5s"}))
    assert diagnosis.culprit_ranks != [3]
