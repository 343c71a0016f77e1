"""Culprits read from the waits themselves, when every failed rank only waited and the
checkpoints agree: the rank that waited in another collective, and the rank that reached
the collective after its peers had timed out (docs/labelling.md, "Ranks waiting in
different collectives" and "A rank that arrives after its peers gave up").

The bundles are 4-rank gloo jobs shaped like the torch corpus: every rank prints the same
checkpoints, then torch's `[rankN]:` copy of the traceback that ended it.
"""

from __future__ import annotations

import json
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.chain import CLOCK_TOLERANCE_S
from tests.analyzers.excerpts import diagnose_files
from tests.analyzers.job_bundles import (
    CLOSED,
    RECV_TIMEOUT,
    RankLog,
    analyze_job,
    bundle,
    decoder_steps,
    pack,
    ranks,
)

SEND_TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out "
    "waiting 10000ms for send operation to complete"
)
C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"
CALL_LINES = {"all_reduce": 3252, "all_gather": 4287, "barrier": 5356, "broadcast": 2811}


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


def torchrun_stopped(world_size: int, root: int) -> str:
    """torchrun's failure summary: worker `root` exited with status 1 first, the agent
    stopped every other worker with SIGTERM."""

    def entry(index: int, rank: int, code: str) -> list[str]:
        return [
            f"[{index}]:",
            "  time      : 2026-11-29_07:24:44",
            "  host      : localhost",
            f"  rank      : {rank} (local_rank: {rank})",
            f"  exitcode  : {code}",
            "  error_file: <N/A>",
        ]

    others = [rank for rank in range(world_size) if rank != root]
    agent = "W1129 07:24:44.105000 2990 torch/distributed/elastic/multiprocessing/api.py:1028]"
    lines = [f"{agent} Sending process {3000 + rank} closing signal SIGTERM" for rank in others]
    lines += [
        "E1129 07:24:44.310000 2990 torch/distributed/elastic/multiprocessing/api.py:1002] "
        f"failed (exitcode: 1) local_rank: {root} (pid: {3000 + root}) of binary: /usr/bin/python3",
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    ]
    lines += ["=" * 60, "worker.py FAILED", "-" * 60, "Failures:"]
    for index, rank in enumerate(others, 1):
        lines += entry(index, rank, f"-15 (pid: {3000 + rank})  (SIGTERM)")
        lines.append(f"  traceback : Signal 15 (SIGTERM) received by PID {3000 + rank}")
    lines += ["-" * 60, "Root Cause (first observed failure):"]
    lines += entry(0, root, f"1 (pid: {3000 + root})")
    lines += [
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "=" * 60,
    ]
    return "\n".join(lines) + "\n"


def test_a_rank_silent_while_others_timed_out_or_lost_peers_never_arrived(
    tmp_path: Path,
) -> None:
    """Eight ranks with two timeouts: ranks 0, 2, 4, 6 (a short one) time out in the
    all_reduce, ranks 1, 3, 7 (a long one) were waiting in it and lose them, rank 5 prints
    nothing before torchrun stops every worker, all in one console
    (`[defaultN]:` prefixes). gloo reports a lost peer only inside a
    collective, so the lost peers were waiting there and rank 5, which lost no one, was
    elsewhere; torchrun's record of the stop is no error of rank 5's own."""
    job = in_step(8)
    for log in job:
        if log.rank != 5:
            ends_in(log, "all_reduce", RECV_TIMEOUT if log.rank % 2 == 0 else CLOSED)
    console = "".join(
        f"[default{log.rank}]:{line}\n" for log in job for line in log.lines
    ) + torchrun_stopped(8, 1)
    path = bundle(tmp_path, [], 8, {"console.log": console})
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [5]
    # the agent's record of the stop is not read as rank 5's line, so the rank comparison
    # already finds it quiet while the others failed; either reason says it never got there
    reason = diagnosis.culprit_reason or ""
    assert "never reached" in reason or "stopped without an error" in reason


def test_lost_peers_with_no_silent_rank_still_arrived_late(tmp_path: Path) -> None:
    """Counterexample: every rank printed its failure (five timeouts, three lost peers);
    nobody stayed outside, so the few that lost their peers are the late ones."""
    job = in_step(8)
    for log in job:
        ends_in(log, "all_reduce", CLOSED if log.rank in (1, 3, 7) else RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == [1, 3, 7]


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
    """Counterexample: every rank gave up on the same all-reduce: the works agree, so they
    say nothing about who left the step (a rank at another sequence number would:
    `test_watchdog_works`)."""
    job = in_step()
    for log in job:
        watchdog_times_out(log, "ALLREDUCE")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def test_an_even_split_of_watchdog_work_types_singles_nobody_out(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        watchdog_times_out(log, "BROADCAST" if log.rank < 2 else "ALLREDUCE")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def swapped_pair(first_call_of_rank_3: str) -> list[RankLog]:
    """TP pairs [0, 1] and [2, 3]: the pair [2, 3] stops after layer 1's norm (rank 3 calls
    its collectives in another order than rank 2), ranks 0 and 1 pass attention and wait for
    them in the next all_reduce. Everyone times out together."""
    job = in_step()
    for log in job[:2]:
        log.info(" attention passed")
    for log in job:
        call = first_call_of_rank_3 if log.rank == 3 else "all_reduce"
        ends_in(log, call, SEND_TIMEOUT if log.rank == 3 else RECV_TIMEOUT)
    return job


def test_of_a_pair_left_behind_the_rank_in_another_collective_swapped_the_order(
    tmp_path: Path,
) -> None:
    diagnosis = analyze_job(tmp_path, swapped_pair("all_gather")).diagnosis
    assert diagnosis.culprit_ranks == [3]
    assert "all_gather" in (diagnosis.culprit_reason or "")


def test_a_pair_left_behind_in_the_same_collective_as_everyone_stays_named(
    tmp_path: Path,
) -> None:
    assert analyze_job(tmp_path, swapped_pair("all_reduce")).diagnosis.culprit_ranks == [2, 3]


def _gloo_size_abort(peer_call: str) -> dict[str, str]:
    """Four plain-print ranks: rank 1 aborts on gloo's size check, the others die inside
    `peer_call` with the connection reset by rank 1's exit (torch 2.13, gloo)."""
    progress = "layer 0 passed\n norm passed\n attention passed\n"
    abort = (
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "pair.cc:456] op.preamble.length <= op.nbytes. 512 vs 256. Received data size doesn't "
        "match expected size. Is there a distributed collective mismatch in your code?\n"
    )
    files = {"job/log_1.log": progress + abort}
    for rank in (0, 2, 3):
        files[f"job/log_{rank}.log"] = progress + (
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/home/user/infer.py", line 162, in moe\n'
            f"[rank{rank}]:     dist.{peer_call}(gathered, local)\n"
            f'[rank{rank}]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/'
            f'distributed_c10d.py", line 4287, in {peer_call}\n'
            f"[rank{rank}]:     work.wait()\n"
            f"[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/"
            "tcp/pair.cc:537] Read error [127.0.0.1]:903: Connection reset by peer. This is "
            "typically caused by a remote worker hanging or bugs in the application.\n"
        )
    return files


def test_the_lone_rank_that_aborts_in_an_all_gather_posted_the_odd_buffer() -> None:
    """docs/labelling.md, "A rank that aborts on what a peer sent": in an all_gather every rank
    receives every other rank's message, so a peer that sent a longer one would have aborted
    every receiver. When one rank alone aborted and the others died inside the all_gather, its
    own buffer was the short one (a float16 tensor among float32, a smaller capacity): it is
    the culprit. Before, no rank was named (held-out gloo runs of four and six ranks)."""
    diagnosis = diagnose_files(_gloo_size_abort("all_gather"))
    assert diagnosis.first_error is not None
    assert "op.preamble.length <= op.nbytes" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]


def test_a_lone_receiver_in_an_all_reduce_names_no_one() -> None:
    """Counterexample: gloo's all_reduce passes chunks round a ring, so a longer tensor aborts
    only the rank after its sender; a lone receiver there may be the victim."""
    diagnosis = diagnose_files(_gloo_size_abort("all_reduce"))
    assert diagnosis.culprit_ranks == []


def test_a_waiter_that_lost_a_neighbour_among_the_timeouts_is_no_late_arrival(
    tmp_path: Path,
) -> None:
    """Five ranks: ranks 0, 2, 3 time out in the all_reduce, rank 1 loses a neighbour that timed
    out in the same moment (it was waiting too), rank 4 reaches the all_reduce 7 s later and
    finds its peers gone. Only rank 4 arrived late."""
    job = in_step(5)
    start = 3000
    for log in job:
        if log.rank in (0, 2, 3):
            log.at(start + 20 * log.rank).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
        elif log.rank == 1:
            log.at(start - 30).log("ERROR", f"model run failed: {CLOSED}")
        else:
            log.at(start + 7000).log("ERROR", f"model run failed: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [4]


def test_lost_peers_all_well_after_the_timeouts_stay_late(tmp_path: Path) -> None:
    """Counterexample: ranks 3 and 4 both lose their peers seconds after the timeouts of
    ranks 0-2: both arrived late, as before."""
    job = in_step(5)
    start = 3000
    for log in job:
        if log.rank < 3:
            log.at(start + 20 * log.rank).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
        else:
            log.at(start + 6000 + 100 * log.rank).log("ERROR", f"model run failed: {CLOSED}")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == [3, 4]


_PROGRESS = decoder_steps(1, [" norm passed", " attention passed"])


def _logged_gather_abort() -> dict[str, str]:
    """Four ranks logging through Python logging (`[rankN] LEVEL message`): rank 2 aborts on
    gloo's size check with no record of its own; the others write `logger.exception(...)`'s
    record with the traceback right under it, then torch's `[rankN]:` copy of the same
    exception (torch 2.13, gloo; an extra all_gather on rank 2 only)."""
    c10d = "/opt/venv/lib/python3.11/site-packages/torch/distributed"
    closed = (
        "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection "
        "closed by peer [127.0.0.1]:51381. This is typically caused by a remote worker "
        "crashing. Check the logs of the remote worker before reporting an error."
    )
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/user/llm-infer/infer.py", line 245, in main',
        "    run_decoder(world)",
        '  File "/home/user/llm-infer/infer.py", line 119, in forward',
        "    m = self.moe(rmsnorm(x))",
        "        ^^^^^^^^^^^^^^^^^^^^",
        '  File "/home/user/llm-infer/infer.py", line 101, in moe',
        "    dist.all_gather(parts, send)",
        f'  File "{c10d}/c10d_logger.py", line 83, in wrapper',
        "    return func(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{c10d}/distributed_c10d.py", line 4287, in all_gather',
        "    work.wait()",
        f"RuntimeError: {closed}",
    ]

    def progress(rank: int) -> str:
        return "".join(
            f"2026-12-07 00:25:18,{210 + i:03d} [rank{rank}] INFO {text}\n"
            for i, text in enumerate(_PROGRESS)
        )

    files = {
        "job/log_2.log": progress(2)
        + "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "pair.cc:456] op.preamble.length <= op.nbytes. 64 vs 2. Received data size doesn't "
        "match expected size. Is there a distributed collective mismatch in your code?\n"
    }
    for rank in (0, 1, 3):
        record = f"2026-12-07 00:25:19,{266 + rank:03d} [rank{rank}] ERROR model run failed: "
        files[f"job/log_{rank}.log"] = (
            progress(rank)
            + record
            + closed
            + "\n"
            + "\n".join(frames)
            + "\n"
            + "".join(f"[rank{rank}]: {line}\n" for line in frames)
        )
    return files


def test_a_logged_failure_takes_the_collective_of_the_traceback_written_under_it() -> None:
    """Python logging's `logger.exception(...)` writes its record and then the traceback under
    it: the record is the failure each peer is read by, and the traceback's innermost frame
    says it was inside the all_gather. The lone receiver is then the culprit as with torch's
    bare tracebacks. Before, the records carried no frame and no rank was named (a held-out
    eight-rank gloo run whose rank 5 alone issued an extra all_gather)."""
    diagnosis = diagnose_files(_logged_gather_abort())
    assert diagnosis.first_error is not None
    assert "op.preamble.length <= op.nbytes" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


def test_all_but_one_member_of_a_group_lost_in_its_barrier_name_the_member_that_went_on(
    tmp_path: Path,
) -> None:
    """Eight ranks, expert groups [0-3] and [4-7] made with `new_group` (torch's long default
    timeout). Rank 1 skipped its group's barrier and went on to the world's all_reduce: it and
    ranks 4-7 time out there, while ranks 0, 2 and 3, still in the group's barrier, only lose
    their peers when those exit. Every rank stopped at the same checkpoint."""
    job = in_step(8)
    for log in job:
        if log.rank in (0, 2, 3):
            ends_in(log, "barrier", CLOSED)
        else:
            ends_in(log, "all_reduce", RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [1]


def test_a_whole_group_lost_in_its_barrier_names_no_member_that_went_on(tmp_path: Path) -> None:
    """Ranks 0-3 are all still in their group's barrier: no member is missing from it."""
    job = in_step(8)
    for log in job:
        ends_in(
            log,
            "barrier" if log.rank < 4 else "all_reduce",
            CLOSED if log.rank < 4 else RECV_TIMEOUT,
        )
    assert len(analyze_job(tmp_path, job).diagnosis.culprit_ranks) != 1


def test_group_members_lost_in_the_waiters_own_collective_stay_late_arrivals(
    tmp_path: Path,
) -> None:
    """Ranks 0, 2 and 3 lost their peers in the same all_reduce the others timed out in: they
    came late to it, the reading of a late arrival, and no member of their block is named."""
    job = in_step(8)
    for log in job:
        ends_in(log, "all_reduce", CLOSED if log.rank in (0, 2, 3) else RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == [0, 2, 3]


def test_two_members_missing_from_the_lost_ranks_group_name_no_one(tmp_path: Path) -> None:
    """Ranks 0 and 2 in the barrier leave two members of block [0-3] out: neither is named."""
    job = in_step(8)
    for log in job:
        if log.rank in (0, 2):
            ends_in(log, "barrier", CLOSED)
        else:
            ends_in(log, "all_reduce", RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks not in ([1], [3])


def ends_in_backward(log: RankLog, error: str) -> RankLog:
    """torch's `[rankN]:` traceback of a wait raised inside a DDP backward pass: the reducer
    all-reduces the gradient buckets from C++, so the innermost Python frame is autograd's."""
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/user/trainer/train.py", line 110, in one_epoch',
        "    loss.backward()",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/_tensor.py", line 623, in backward',
        "    torch.autograd.backward(",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 979, in '
        "_engine_run_backward",
        "    return Variable._execution_engine.run_backward(",
        f"RuntimeError: {error}",
    ]
    log.lines += [f"[rank{log.rank}]: {line}" for line in frames]
    return log


def test_a_rank_in_a_barrier_while_the_others_wait_in_backward_left_the_step(
    tmp_path: Path,
) -> None:
    """Rank 2 ran out of batches and waited in the barrier after its loop, while ranks 0, 1
    and 3 waited in the gradient all_reduce of their next backward: the wait in autograd's
    backward is the collective they were in."""
    job = in_step()
    for log in job:
        if log.rank == 2:
            ends_in(log, "barrier", RECV_TIMEOUT)
        else:
            ends_in_backward(log, RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "backward" in (diagnosis.culprit_reason or "")


def test_ranks_all_waiting_in_backward_single_nobody_out(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        ends_in_backward(log, SEND_TIMEOUT if log.rank == 0 else RECV_TIMEOUT)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


RESET = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error "
    "[127.0.0.1]:45449: Connection reset by peer. This is typically caused by a remote worker "
    "hanging or bugs in the application."
)
SIZE_ABORT = [
    "terminate called after throwing an instance of 'gloo::EnforceNotMet'",
    "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:456] op.preamble.length <= op.nbytes. 1356 vs 4. Received data size doesn't match "
    "expected size. Is there a distributed collective mismatch in your code?",
]


def ends_in_join_hook(log: RankLog, error: str) -> RankLog:
    """torch's `[rankN]:` traceback of a wait raised inside DDP's join hook: the rank has
    left its loop and answers its peers' gradient all_reduces from the Join context's exit."""
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/user/trainer/train.py", line 127, in train',
        "    with ddp.join():",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/algorithms/join.py", '
        "line 274, in __exit__",
        "    join_hook.main_hook()",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/nn/parallel/distributed.py", '
        "line 452, in main_hook",
        "    ddp._match_all_reduce_for_bwd_pass()",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/nn/parallel/distributed.py", '
        "line 1982, in _match_all_reduce_for_bwd_pass",
        "    work.wait()",
        f"RuntimeError: {error}",
    ]
    log.lines += [f"[rank{log.rank}]: {line}" for line in frames]
    return log


def _training(log: RankLog, steps: int) -> RankLog:
    for step in range(steps):
        log.steps(f"train step {step} start", "  forward passed", "  backward passed")
        log.steps("  optimizer passed", f"train step {step} passed loss=4.2")
    return log


def test_the_rank_in_ddps_join_hook_ran_out_of_inputs(tmp_path: Path) -> None:
    """Rank 3 had four batches, the others six; under `ddp.join()` it shadows their gradient
    all_reduces, but not the loss all_reduce they also run each step. Rank 2 aborts on the
    size of a message, rank 1 loses it, rank 0 and rank 3 time out: rank 3 is the one whose
    data ran out, not the rank that received the odd message."""
    job = ranks(4)
    for log in job:
        log.loaded()
        _training(log, 4 if log.rank == 3 else 5)
        if log.rank != 3:
            log.steps("train step 5 start", "  forward passed")
    job[2].lines += SIZE_ABORT
    job[1].log("ERROR", f"training failed: {RESET}")
    ends_in_backward(job[1], RESET)
    ends_in_backward(job[0].at(30000), SEND_TIMEOUT)
    ends_in_join_hook(job[3].at(30000), RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert "op.preamble.length" in (diagnosis.first_error.text if diagnosis.first_error else "")
    assert diagnosis.culprit_ranks == [3]
    assert "join" in (diagnosis.culprit_reason or "")


def test_ranks_all_in_the_join_hook_are_not_singled_out(tmp_path: Path) -> None:
    """Half the ranks or more in the join hook: the join itself is no odd one out."""
    job = ranks(4)
    for log in job:
        log.loaded()
        _training(log, 3)
        if log.rank < 2:
            ends_in_join_hook(log, RECV_TIMEOUT)
        else:
            ends_in_backward(log, RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert "join hook" not in (diagnosis.culprit_reason or "")


def _json_rank(rank: int, call: str, error: str, at: float) -> str:
    """A rank's JSON-lines log (one record a line, the traceback escaped into `exc`): the
    same progress as its peers, then its failure logged `at` seconds into the minute."""
    records = [
        {"ts": f"2026-03-09T09:14:{n:02d}.000Z", "level": "INFO", "rank": rank, "msg": msg}
        for n, msg in enumerate(["layer 0 norm passed", "layer 0 passed", "backward passed"])
    ]
    exc = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/srv/job/train.py", line 61, in sync',
            f"    dist.{call}(buf)",
            f'  File "{C10D}/distributed_c10d.py", line {CALL_LINES[call]}, in {call}',
            "    work.wait()",
            f"RuntimeError: {error}",
        ]
    )
    stamp = f"2026-03-09T09:14:{at:06.3f}Z"
    records.append(
        {"ts": stamp, "level": "ERROR", "rank": rank, "msg": "step 3 failed", "exc": exc}
    )
    return "".join(json.dumps(record) + "\n" for record in records)


def _deadlock(tmp_path: Path, late_loss: float):
    """Rank 3 gathers in its pair before the world all_reduce, the others reduce first: ranks
    0 and 2 time out, rank 1 hears rank 2 go a moment before its own timeout, rank 3 loses its
    partner inside the all_gather `late_loss` seconds into the minute."""
    files = {
        "job-7/log_0.log": _json_rank(0, "all_reduce", SEND_TIMEOUT, 40.600),
        "job-7/log_1.log": _json_rank(1, "all_reduce", CLOSED, 40.074),
        "job-7/log_2.log": _json_rank(2, "all_reduce", RECV_TIMEOUT, 40.084),
        "job-7/log_3.log": _json_rank(3, "all_gather", CLOSED, late_loss),
    }
    path = pack(tmp_path / "job.tar.gz", files)
    return analyze(path, AnalyzeOptions(workers=1)).diagnosis


def test_peers_lost_among_the_timeouts_are_waits_whose_frames_count(tmp_path: Path) -> None:
    """Only two ranks timed out; the other two lost a peer among the timeouts, so their
    frames say where they waited too: rank 3 alone is in another collective. The timeouts are
    ordered by their records' times although the exceptions sit inside the records."""
    diagnosis = _deadlock(tmp_path, 41.527)
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.first_error is not None
    assert "recv operation" in diagnosis.first_error.text


def test_a_peer_lost_well_after_the_timeouts_is_no_wait(tmp_path: Path) -> None:
    """Counterexample: a loss seconds after the last timeout is no wait among them, and two
    timeouts are too few to compare frames."""
    assert _deadlock(tmp_path, 40.600 + CLOCK_TOLERANCE_S + 6).culprit_ranks == []
