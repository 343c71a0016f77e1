"""Culprits read from how each rank's store wait ended (docs/labelling.md, "A rank that never
reached the store"): a rank whose client could not connect to the rendezvous store, while its
peers waited inside the store, is the rank they waited for.

The bundles are 4-rank gloo jobs shaped like the torch corpus; the store lines are torch
2.13's own wordings with values of our own.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.core.report import Report
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import RankLog, analyze_job, pack, ranks

CLIENTS = (
    "torch.distributed.DistStoreError: Timed out after 11 seconds waiting for clients. "
    "{joined}/4 clients joined."
)
KEY_WAIT = (
    "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/0"
)


def cannot_connect(log: RankLog, port: int) -> RankLog:
    """The client's E-level connect timeout, torch's retry note and the exception."""
    timed_out = (
        f"The client socket has timed out after 10000ms while trying to connect to "
        f"(127.0.0.1, {port})."
    )
    log.raw(f"[E1204 10:20:01.763270466 socket.cpp:1028] [c10d] {timed_out}")
    log.raw(
        f"[E1204 10:20:04.873928337 TCPStore.cpp:328] [c10d] TCP client failed to "
        f"connect/validate to host 127.0.0.1:{port} - timed out (try=1, timeout=10000ms): "
        f"{timed_out}"
    )
    log.raw("Traceback (most recent call last):")
    log.raw('  File "/home/user/llm-infer/infer.py", line 126, in main')
    log.raw("    dist.init_process_group(")
    return log.raw(f"torch.distributed.DistNetworkError: {timed_out}")


def test_the_rank_that_never_reached_the_store_is_the_one_its_peers_waited_for(
    tmp_path: Path,
) -> None:
    """Rank 3 was given the master port plus one: the store counts 3 of 4 clients, ranks 1
    and 2 wait for keys, rank 3 times out connecting."""
    job = ranks(4)
    job[0].raw(CLIENTS.format(joined=3))
    job[1].raw(KEY_WAIT)
    job[2].raw(KEY_WAIT)
    cannot_connect(job[3], 36950)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "hccl", first_error="while trying to connect to (127.0.0.1, 36950)")
    assert diagnosis.culprit_ranks == [3]
    assert "could not reach the rendezvous store" in diagnosis.root_cause


def test_a_store_no_client_reaches_singles_out_no_one(tmp_path: Path) -> None:
    """Ranks 1 to 3 all time out connecting while the store counts only itself: the store
    was out of reach for everyone, not one rank's address."""
    job = ranks(4)
    job[0].raw(CLIENTS.format(joined=1))
    for log in job[1:]:
        cannot_connect(log, 36949)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == []


def _plain_bundle(directory: Path, files: dict[str, str]) -> Report:
    """Logs written with print(): no date anywhere, so c10d's `[E1204 ...]` times have no
    year and no line of the bundle can be placed in time."""
    return analyze(pack(directory / "job.tar.gz", files, "job-54ddb6ad"), AnalyzeOptions(workers=1))


def test_without_times_the_store_s_count_still_stands_behind_the_unreached_rank(
    tmp_path: Path,
) -> None:
    """Six ranks printing plain lines; rank 4 was given another port. Rank 0's file comes
    first, but its count of clients waited for rank 4: rank 4's connect is the first error."""
    init = "init process group: backend=gloo rank={rank} world_size=6 master=127.0.0.1:47575"
    files = {}
    for rank in range(6):
        lines = [init.format(rank=rank)]
        if rank == 0:
            lines += [
                "model run failed: Timed out after 11 seconds waiting for clients. 5/6 clients joined.",
                "torch.distributed.DistStoreError: Timed out after 11 seconds waiting for clients. "
                "5/6 clients joined.",
            ]
        elif rank == 4:
            lines += cannot_connect(ranks(6)[4], 47582).lines[-5:]
        else:
            lines += [f"model run failed: {KEY_WAIT.split(': ', 1)[1]}", KEY_WAIT]
        files[f"log_{rank}.log"] = "\n".join(lines) + "\n"
    diagnosis = _plain_bundle(tmp_path, files).diagnosis
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file.endswith("log_4.log")
    assert "while trying to connect to (127.0.0.1, 47582)" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [4]


def test_a_client_s_key_wait_that_ends_first_stands_behind_the_store_s_count(
    tmp_path: Path,
) -> None:
    """Four processes told the world has five ranks: the clients' 10 s key waits end before
    the store's 11 s wait for clients, but the count says what they all waited for."""
    job = ranks(5)[:4]
    job[0].at(11000).log(
        "ERROR",
        "model run failed: Timed out after 11 seconds waiting for clients. 4/5 clients joined.",
    )
    for log in job[1:]:
        log.at(10200).log("ERROR", f"model run failed: {KEY_WAIT.split(': ', 1)[1]}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "config", first_error="4/5 clients joined")
    assert diagnosis.culprit_ranks == []


# One combined stdout (no `--tee`): the ranks log through Python logging with `[rankN]`, while
# c10d's own lines (rank 3's connect to a mistyped MASTER_ADDR) carry no rank at all.
COMBINED_TYPO = """\
2026-12-04 15:47:47,813 [rank1] INFO rank 1: connecting to localhost:46807 backend=gloo
2026-12-04 15:47:47,931 [rank5] INFO rank 5: connecting to localhost:46807 backend=gloo
2026-12-04 15:47:47,940 [rank0] INFO rank 0: connecting to localhost:46807 backend=gloo
2026-12-04 15:47:47,952 [rank3] INFO rank 3: connecting to trainer-mastr-0:46807 backend=gloo
[W1204 15:47:47.828324316 socket.cpp:764] [c10d] The IPv6 network addresses of (trainer-mastr-0, 46807) cannot be retrieved (gai error: -2 - Name or service not known).
2026-12-04 15:47:47,978 [rank4] INFO rank 4: connecting to localhost:46807 backend=gloo
2026-12-04 15:47:47,988 [rank2] INFO rank 2: connecting to localhost:46807 backend=gloo
[E1204 15:48:12.472120447 socket.cpp:1028] [c10d] The client socket has timed out after 30000ms while trying to connect to (trainer-mastr-0, 46807).
[W1204 15:48:12.476212821 TCPStore.cpp:340] [c10d] TCP client failed to connect/validate to host trainer-mastr-0:46807 - retrying (try=0, timeout=30000ms, delay=17500ms): The client socket has timed out after 30000ms while trying to connect to (trainer-mastr-0, 46807).
Exception raised from throwTimeoutError at /__w/pytorch/pytorch/torch/csrc/distributed/c10d/socket.cpp:1030 (most recent call first):
<omitting python frames>

"""
KEY_WAIT_TRACEBACK = """\
Traceback (most recent call last):
  File "/work/job/infer.py", line 256, in <module>
    main()
  File "/work/job/infer.py", line 211, in main
    dist.init_process_group(backend, timeout=timeout)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83, in wrapper
    return func(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 97, in wrapper
    func_return = func(*args, **kwargs)
                  ^^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 1899, in init_process_group
    default_pg, _ = _new_process_group_helper(
                    ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2169, in _new_process_group_helper
    backend_class = ProcessGroupGloo(
                    ^^^^^^^^^^^^^^^^^
torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/3
"""
COMBINED_TYPO += "".join(
    f"2026-12-04 15:48:18,0{ms} [rank{rank}] ERROR model run failed: wait timeout after "
    f"30000ms, keys: /default_pg/0//cpu//0/3\n{KEY_WAIT_TRACEBACK}"
    for rank, ms in ((5, 26), (1, 28), (2, 32), (0, 34), (4, 44))
)


def test_the_peers_key_waits_name_the_rank_whose_unranked_connect_failed(
    tmp_path: Path,
) -> None:
    report = _plain_bundle(tmp_path, {"job.log": COMBINED_TYPO})
    _rank_three_waited_for(report)


def test_a_real_combined_stdout_with_one_mistyped_master_addr_blames_that_rank() -> None:
    """Six ranks started by torchrun into one stdout, rank 3 with MASTER_ADDR mistyped; the
    agent's tail (its first failed child is rank 5) follows the waits."""
    fixture = Path(__file__).parents[2] / "fixtures" / "multirank" / "store_key_typo"
    _rank_three_waited_for(analyze(fixture, AnalyzeOptions(workers=1)))


def _rank_three_waited_for(report: Report) -> None:
    diagnosis = report.diagnosis
    assert diagnosis.first_error is not None
    assert "trainer-mastr-0" in diagnosis.first_error.text
    # the rank-5 error six seconds later is that rank's own wait, not the c10d line's writer
    assert diagnosis.first_error.rank is None
    assert diagnosis.culprit_ranks == [3]


def test_a_late_node_s_ranks_are_the_clients_the_store_counted_missing(tmp_path: Path) -> None:
    """A node started late: its ranks 2 and 3 time out connecting after the store, on rank 0,
    had counted 2 of 4 clients and given up; rank 1 waited for rank 0's key. Half the ranks
    never reached the store, yet the store reached two and counted exactly two missing:
    those are the ranks it waited for."""
    job = ranks(4)
    job[0].raw(CLIENTS.format(joined=2))
    job[1].raw(KEY_WAIT)
    cannot_connect(job[2], 36949)
    cannot_connect(job[3], 36949)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2, 3]
