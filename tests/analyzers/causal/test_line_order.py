"""The order the first error is chosen in: line order within a file, one clock across files,
untimed lines after timed ones unless a timed record they stand under dates them."""

from __future__ import annotations

from analyzers.causal.first_error import find_first_error
from analyzers.core.types import FileKind, RankStatus
from tests.analyzers.causal.timed_items import OOM, correlation, item
from tests.analyzers.excerpts import diagnose_files


def test_within_one_file_line_order_wins_over_disagreeing_clocks() -> None:
    cpp = item(
        "[Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms",
        rank=0,
        order=0,
        line=20,
        seconds=0.6,
    )
    python = item(
        "model run failed: [Rank 0]: Ranks 2 failed to pass monitoredBarrier in 5000 ms",
        rank=0,
        order=0,
        line=22,
        seconds=0.3,
    )
    chain = find_first_error([python, cpp])
    assert chain.first is cpp
    assert chain.culprit_ranks == [2]


def test_across_files_the_earliest_on_one_clock_wins() -> None:
    # rank 1's clock runs 10 s ahead: its 10:00:05 is rank 0's 09:59:55
    rank0 = item("ValueError: bad batch", rank=0, order=0, seconds=0)
    rank1 = item("ValueError: bad batch", rank=1, order=1, seconds=5)
    assert find_first_error([rank0, rank1]).first is rank0
    offsets = correlation({0: RankStatus.ERROR, 1: RankStatus.ERROR}, {0: 0.0, 1: 10.0})
    assert find_first_error([rank0, rank1], offsets).first is rank1


def test_a_ranks_own_log_is_cited_before_the_launchers_copy() -> None:
    launcher = item(OOM, rank=1, order=0, seconds=0, kind=FileKind.LAUNCHER)
    own = item(OOM, rank=1, order=1, seconds=0)
    chain = find_first_error([launcher, own])
    assert chain.first is own


def test_lines_without_time_come_after_timed_ones_of_the_same_tier() -> None:
    untimed = item(OOM, rank=3, order=0)
    timed = item(OOM, rank=1, order=1, seconds=50)
    assert find_first_error([untimed, timed]).first is timed


# Ranks that log with Python logging print `logger.exception(...)` as one timed record and the
# traceback right under it; the exception line itself carries no time. Ranks 2 and 3 gave up
# waiting in the store at 09:14:21; ranks 0 and 1, still waiting for them, failed to connect
# the gloo mesh a minute later.
def _logged_record(rank: int, when: str, wait_line: str) -> str:
    return (
        f"2026-03-09 09:14:01,204 [rank{rank}] INFO init process group: backend=gloo "
        f"init_method=env:// rank={rank} world_size=4\n"
        f"2026-03-09 {when} [rank{rank}] ERROR model run failed\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/jobs/moe/infer.py", line 88, in main\n'
        "    dist.init_process_group(backend, init_method=init, rank=rank, world_size=ws)\n"
        '  File "/srv/env/lib/python3.11/site-packages/torch/distributed/rendezvous.py", '
        "line 199, in _create_c10d_store\n"
        "    return TCPStore(\n"
        "           ^^^^^^^^^\n"
        f"{wait_line}\n"
    )


STORE_WAIT = (
    "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/0"
)

MESH_FAILED = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/"
    "gloo/transport/tcp/pair.h:311] Connect timeout [none]"
)


def _mesh_failure(rank: int) -> str:
    return (
        f"2026-03-09 09:14:01,188 [rank{rank}] INFO init process group: backend=gloo "
        f"init_method=env:// rank={rank} world_size=4\n"
        f"[E309 09:15:12.331820917 ProcessGroupGloo.cpp:67] {MESH_FAILED.split(': ', 1)[1]}\n"
        f"2026-03-09 09:15:12,402 [rank{rank}] ERROR model run failed\n"
        f"{MESH_FAILED}\n"
    )


def test_a_traceback_under_a_timed_log_record_is_placed_at_the_records_time() -> None:
    diagnosis = diagnose_files(
        {
            "job/log_0.log": _mesh_failure(0),
            "job/log_1.log": _mesh_failure(1),
            "job/log_2.log": _logged_record(2, "09:14:21,622", STORE_WAIT),
            "job/log_3.log": _logged_record(3, "09:14:21,140", STORE_WAIT),
        }
    )
    assert diagnosis.first_error is not None
    assert "wait timeout after 10000ms" in diagnosis.first_error.text
    assert diagnosis.first_error.rank == 3


def test_a_traceback_far_below_its_files_last_time_stays_untimed() -> None:
    far = _logged_record(3, "09:14:21,140", STORE_WAIT).replace(
        "ERROR model run failed\n", "ERROR model run failed\nretrying the store once more\n"
    )
    diagnosis = diagnose_files({"job/log_0.log": _mesh_failure(0), "job/log_3.log": far})
    assert diagnosis.first_error is not None
    assert "connectFullMesh" in diagnosis.first_error.text


def test_an_exception_the_rank_also_printed_in_its_stderr_keeps_the_copies_order() -> None:
    attempt = "job/torchrun_logs/job_x1/attempt_0"
    diagnosis = diagnose_files(
        {
            f"{attempt}/2/stderr.log": (
                "[rank2]: Traceback (most recent call last):\n"
                '[rank2]:   File "/srv/jobs/moe/infer.py", line 88, in main\n'
                "[rank2]:     dist.init_process_group(backend, rank=rank, world_size=ws)\n"
                f"[rank2]: {STORE_WAIT}\n"
            ),
            f"{attempt}/2/stdout.log": _logged_record(2, "09:14:21,622", STORE_WAIT),
        }
    )
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file.endswith("2/stderr.log")


GLOO_RECV_TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 12000ms for recv operation to complete"
)


def _timed_out_ranks(records: dict[int, str]) -> dict[str, str]:
    """torchrun --log-dir: each rank logs the timeout under a timed record in its stdout.log
    and torch prints its `[rankN]:` copy, with no time, in its stderr.log."""
    attempt = "job/torchrun_logs/job_x1/attempt_0"
    files = {}
    for rank, when in records.items():
        files[f"{attempt}/{rank}/stderr.log"] = (
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/jobs/lm/train.py", line 170, in main\n'
            f"[rank{rank}]:     dist.all_reduce(prm.grad)\n"
            f"[rank{rank}]: {GLOO_RECV_TIMEOUT}\n"
        )
        files[f"{attempt}/{rank}/stdout.log"] = (
            f"2026-03-09 09:14:01,204 [rank{rank}] INFO train step 4 start\n"
            f"2026-03-09 {when} [rank{rank}] ERROR training failed\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/jobs/lm/train.py", line 170, in main\n'
            "    dist.all_reduce(prm.grad)\n"
            f"{GLOO_RECV_TIMEOUT}\n"
        )
    return files


def test_ranks_that_printed_an_exception_twice_are_ordered_by_their_records() -> None:
    diagnosis = diagnose_files(
        _timed_out_ranks({0: "09:14:23,299", 1: "09:14:23,292", 2: "09:14:23,299"})
    )
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 1
    assert diagnosis.first_error.file.endswith("1/stderr.log")


def test_ranks_whose_records_carry_no_time_keep_their_files_order() -> None:
    files = _timed_out_ranks({0: "09:14:23,299", 1: "09:14:23,292"})
    for rank in (0, 1):
        out = f"job/torchrun_logs/job_x1/attempt_0/{rank}/stdout.log"
        files[out] = "\n".join(
            line.split(" ", 2)[2] if line.startswith("2026-") else line
            for line in files[out].split("\n")
        )
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 0
