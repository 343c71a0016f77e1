"""A job whose ranks were given the wrong world size is told to fix the launch, not a config field.

docs/labelling.md#ranks-started-with-different-world-sizes and
docs/labelling.md#a-world-size-larger-than-the-job-started: the ranks' own lines (a rank that
states another size, a rank whose store wait names a peer past the world, a world larger than
the processes the environment counts) turn the store's or a collective's wait into `config`.
The advice then follows that reading: the size each rank is launched with has to agree with the
processes started, which the config category's generic advice (fields a version expects) does
not say. Counterexample: a store wait for a peer inside the world keeps the collective layer's
advice. Logs are our own, in torch 2.13's and gloo's wordings.
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import RECV_TIMEOUT, RankLog, analyze_job, store_never_fills

KEY_WAIT = "torch.distributed.DistStoreError: wait timeout after 15000ms, keys: /default_pg/0//cpu//0/{key}"


def _peers_waiting_in_broadcast(world: int) -> list[RankLog]:
    logs = [RankLog(rank, world) for rank in range(world - 1)]
    for log in logs:
        log.info("process group ready")
        log.raw(f"[rank{log.rank}]: RuntimeError: {RECV_TIMEOUT}")
    return logs


def _world_size_advice(actions: list[str]) -> bool:
    return bool(actions) and "WORLD_SIZE" in actions[0]


def test_a_rank_whose_store_wait_names_a_peer_past_the_world_is_told_to_fix_its_size(
    tmp_path: Path,
) -> None:
    """Rank 3 of four was launched with WORLD_SIZE=5 and failed in init_process_group before its
    start line, waiting for rank 4's address."""
    silent = RankLog(3, 4)
    silent.lines = [KEY_WAIT.format(key=4)]
    diagnosis = analyze_job(tmp_path, [*_peers_waiting_in_broadcast(4), silent]).diagnosis
    assert diagnosis.category == "config", diagnosis.root_cause
    assert _world_size_advice(diagnosis.next_actions), diagnosis.next_actions
    assert "rank 3" in diagnosis.next_actions[0]


def test_a_rank_that_states_another_world_size_is_told_to_fix_its_size(tmp_path: Path) -> None:
    odd = RankLog(3, 5)
    odd.raw(KEY_WAIT.format(key=4))
    diagnosis = analyze_job(tmp_path, [*_peers_waiting_in_broadcast(4), odd]).diagnosis
    assert diagnosis.category == "config", diagnosis.root_cause
    assert _world_size_advice(diagnosis.next_actions), diagnosis.next_actions


def test_a_world_larger_than_the_processes_started_is_told_to_fix_the_size(
    tmp_path: Path,
) -> None:
    diagnosis = analyze_job(tmp_path, store_never_fills(5, 4)).diagnosis
    assert diagnosis.category == "config", diagnosis.root_cause
    assert _world_size_advice(diagnosis.next_actions), diagnosis.next_actions


def test_a_store_wait_for_a_peer_inside_the_world_keeps_the_collective_advice(
    tmp_path: Path,
) -> None:
    """Counterexample: rank 3 waits for rank 2's key, a peer that exists."""
    waiting = RankLog(3, 4)
    waiting.lines = [KEY_WAIT.format(key=2)]
    diagnosis = analyze_job(tmp_path, [*_peers_waiting_in_broadcast(4), waiting]).diagnosis
    assert diagnosis.category != "config", diagnosis.root_cause
    assert not any("WORLD_SIZE" in action for action in diagnosis.next_actions)
