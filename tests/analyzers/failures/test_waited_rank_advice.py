"""A rank the others waited for is not called the rank that failed first.

docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: when a rank stalls (a
busy loop, a lock, a call its peers did not make) its peers' collective timeouts are the first
error, and the culprit is the rank the checkpoints or stack dumps single out, not the one that
reported. The advice then sends the reader to that rank as the one the others waited for, and
says how to see where it stood; it does not call it the rank that failed first. Counterexample:
a rank whose own error is the first error keeps the plain advice to read it first. Logs are our
own, in gloo's and torch 2.13's wordings.
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import CLOSED, RECV_TIMEOUT, analyze_job, ranks


def test_the_rank_the_others_waited_for_is_named_as_such(tmp_path: Path) -> None:
    logs = ranks(4)
    for log in logs:
        log.layers(2)
    logs[2].steps(" norm passed")  # rank 2 stalls in layer 2 while the others finish it
    for log in (logs[0], logs[1], logs[3]):
        log.steps(" norm passed", " attention passed", " MoE passed", "layer 2 passed")
        log.raw(f"[rank{log.rank}]: RuntimeError: {RECV_TIMEOUT}")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [2]
    actions = " ".join(diagnosis.next_actions)
    assert "failed first (rank 2)" not in actions
    assert "rank 2, which the others waited for" in actions, diagnosis.next_actions


def test_a_rank_whose_own_error_came_first_is_still_read_first(tmp_path: Path) -> None:
    logs = ranks(4)
    for log in logs:
        log.layers(1)
    logs[1].fails("ValueError: expert index 9 out of range for 8 experts", frame="route")
    for log in (logs[0], logs[2], logs[3]):
        log.raw(f"[rank{log.rank}]: RuntimeError: {CLOSED}")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 1
    assert diagnosis.culprit_ranks == [1]
    actions = " ".join(diagnosis.next_actions)
    assert "which the others waited for" not in actions, diagnosis.next_actions
