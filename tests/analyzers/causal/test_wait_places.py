"""Culprits read from the waits themselves, when every failed rank only waited and the
checkpoints agree: the rank that waited in another collective, and the rank that reached
the collective after its peers had timed out (docs/labelling.md, "Ranks waiting in
different collectives" and "A rank that arrives after its peers gave up").

The bundles are 4-rank gloo jobs shaped like the torch corpus: every rank prints the same
checkpoints, then torch's `[rankN]:` copy of the traceback that ended it.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.causal.wait_places import CLOCK_TOLERANCE_S
from tests.analyzers.job_bundles import CLOSED, RECV_TIMEOUT, RankLog, analyze_job, ranks

SEND_TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out "
    "waiting 10000ms for send operation to complete"
)
C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"
CALL_LINES = {"all_reduce": 3252, "barrier": 5356, "broadcast": 2811}


def ends_in(log: RankLog, call: str, error: str) -> RankLog:
    """torch's `[rankN]:` traceback of an exception raised inside collective `call`."""
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/user/llm-infer/infer.py", line 144, in forward',
        "    x = x + self.attention(h)",
        '  File "/home/user/llm-infer/infer.py", line 94, in forward',
        "    dist.all_reduce(out)" if call == "all_reduce" else f"    dist.{call}()",
        f'  File "{C10D}/c10d_logger.py", line 83, in wrapper',
        "    return func(*args, **kwargs)",
        f'  File "{C10D}/distributed_c10d.py", line {CALL_LINES[call]}, in {call}',
        "    work.wait()",
        f"RuntimeError: {error}",
    ]
    log.lines += [f"[rank{log.rank}]: {line}" for line in frames]
    return log


def in_step(world_size: int = 4) -> list[RankLog]:
    """Every rank loaded its weights and passed layer 0 and layer 1's norm."""
    job = ranks(world_size)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    return job


def test_the_rank_waiting_in_another_collective_started_the_timeout(tmp_path: Path) -> None:
    """Rank 2 entered a barrier where ranks 0, 1 and 3 entered an all_reduce: all four time
    out together with the same words, and only the frames tell them apart."""
    job = in_step()
    for log in job:
        ends_in(log, "barrier" if log.rank == 2 else "all_reduce", RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "barrier" in (diagnosis.culprit_reason or "")
    assert "all_reduce" in (diagnosis.culprit_reason or "")


def test_ranks_timing_out_in_the_same_collective_single_nobody_out(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        ends_in(log, "all_reduce", SEND_TIMEOUT if log.rank == 0 else RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def test_an_even_split_between_two_collectives_singles_nobody_out(tmp_path: Path) -> None:
    """Two ranks in a broadcast, two in an all_reduce: no side is the odd one."""
    job = in_step()
    for log in job:
        ends_in(log, "broadcast" if log.rank < 2 else "all_reduce", RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def test_the_rank_that_lost_its_peers_while_they_timed_out_arrived_late(tmp_path: Path) -> None:
    """Ranks 0-2 time out in the all_reduce; rank 3 was kept elsewhere, reached the
    all_reduce after the others had given up and exited, and found the connections closed.
    Its checkpoints are the same as theirs."""
    job = in_step()
    for log in job:
        ends_in(log, "all_reduce", CLOSED if log.rank == 3 else RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [3]
    assert "late" in (diagnosis.culprit_reason or "")


def test_a_peer_lost_long_before_the_timeouts_is_not_a_late_arrival(tmp_path: Path) -> None:
    """Rank 3 lost its peer 20 s before ranks 0-2 timed out: something had gone away before
    anyone gave up waiting, so the closed connection says nothing about rank 3 coming late."""
    job = in_step()
    lost_ms = 3000
    job[3].at(lost_ms).log("ERROR", f"model run failed: {CLOSED}")
    for log in job[:3]:
        log.at(lost_ms + 20000 + int(CLOCK_TOLERANCE_S * 1000)).log(
            "ERROR", f"model run failed: {RECV_TIMEOUT}"
        )
    assert 3 not in analyze_job(tmp_path, job).diagnosis.culprit_ranks


def test_half_the_ranks_losing_their_peers_is_no_late_few(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        ends_in(log, "all_reduce", CLOSED if log.rank >= 2 else RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def watchdog_times_out(log: RankLog, work: str, seq: int = 5120) -> RankLog:
    """torch's NCCL watchdog line for a work item that ran out of time, with no traceback:
    the process is taken down from the watchdog thread."""
    log.raw(
        f"[rank{log.rank}]:[E311 04:20:31.5527{log.rank:05d} ProcessGroupNCCL.cpp:616] "
        f"[Rank {log.rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
        f"OpType={work}, NumelIn=2048, NumelOut=2048, Timeout(ms)=600000) ran for 600043 "
        "milliseconds before timing out."
    )
    return log


def test_the_work_a_watchdog_gave_up_on_names_the_rank_in_another_collective(
    tmp_path: Path,
) -> None:
    """No traceback, only each rank's watchdog line: ranks 0, 1 and 3 gave up on a broadcast,
    rank 2 on an all-gather it had gone on to."""
    job = in_step()
    for log in job:
        watchdog_times_out(log, "_ALLGATHER_BASE" if log.rank == 2 else "BROADCAST")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "_ALLGATHER_BASE" in (diagnosis.culprit_reason or "")
    assert "BROADCAST" in (diagnosis.culprit_reason or "")


def test_watchdog_lines_naming_one_work_type_single_nobody_out(tmp_path: Path) -> None:
    """Counterexample: every rank gave up on an all-reduce (one at another sequence number):
    the work types agree, so they say nothing about who left the step."""
    job = in_step()
    for log in job:
        watchdog_times_out(log, "ALLREDUCE", seq=5121 if log.rank == 1 else 5120)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def test_an_even_split_of_watchdog_work_types_singles_nobody_out(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        watchdog_times_out(log, "BROADCAST" if log.rank < 2 else "ALLREDUCE")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []
