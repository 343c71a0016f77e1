"""Ranks whose own start lines give another world size than the rest.

Example: rank 3 of four is started with WORLD_SIZE=5; it waits in the store for a key of rank
4, rank 2 waits in its first collective, ranks 0 and 1 cannot connect their mesh: every line is
a wait, and rank 3's `world_size=5` is the odd one: `config`, rank 3, `hccl` beside it.
Counterexample: all ranks state the same size: the waits keep the store's reading.

docs/labelling.md#ranks-started-with-different-world-sizes
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.world_sizes import odd_world_sizes
from tests.analyzers.excerpts import scan_text
from tests.analyzers.job_bundles import CLOSED, RECV_TIMEOUT, RankLog, analyze_job, pack

MESH = (
    "Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/"
    "tcp/pair.h:311] Connect timeout [none]"
)


def _logs(odd_size: int) -> list[RankLog]:
    logs = [RankLog(rank, odd_size if rank == 3 else 4) for rank in range(4)]
    for log in logs[:2]:
        log.at(51000).log("ERROR", f"model run failed: RuntimeError: {MESH}")
        log.raw(f"RuntimeError: {MESH}")
    logs[2].loaded().at(10500).log("ERROR", f"model run failed: RuntimeError: {RECV_TIMEOUT}")
    logs[2].raw(f"[rank2]: RuntimeError: {RECV_TIMEOUT}")
    logs[3].at(10480).log(
        "ERROR",
        "model run failed: DistStoreError: wait timeout after 10000ms, keys: "
        f"/default_pg/0//cpu//0/{odd_size - 1}",
    )
    logs[3].raw(
        "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: "
        f"/default_pg/0//cpu//0/{odd_size - 1}"
    )
    return logs


def test_rank_with_another_world_size_is_config_and_blamed(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, _logs(5)).to_dict()["diagnosis"]
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [3]
    assert "hccl" in [alt["category"] for alt in diagnosis["alternatives"]]


def test_same_world_size_keeps_the_wait_reading(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, _logs(4)).to_dict()["diagnosis"]
    assert diagnosis["category"] == "hccl"


def test_no_majority_or_too_few_ranks_decide_nothing() -> None:
    assert odd_world_sizes([]) is None


def _silent_larger_world(odd_size: int) -> list[RankLog]:
    """Rank 2 of four started with another world size fails inside `init_process_group`, before
    its start line: only its store wait for the last peer's address says which size it had."""
    logs = _logs(4)
    logs[3].lines = logs[3].lines[:2]
    logs[3].at(10500).log("ERROR", f"model run failed: RuntimeError: {RECV_TIMEOUT}")
    logs[3].raw(f"[rank3]: RuntimeError: {RECV_TIMEOUT}")
    logs[2].lines = []
    logs[2].raw(
        "[W1205 02:59:36.757438058 socket.cpp:469] [c10d] waitForInput: poll for socket "
        "SocketImpl(fd=4, addr=[::ffff:127.0.0.1]:36504, remote=[::ffff:127.0.0.1]:58257) "
        "returned 0, likely a timeout"
    )
    logs[2].raw("Traceback (most recent call last):")
    logs[2].raw('  File "/work/infer/toy.py", line 44, in <module>')
    logs[2].raw(
        '    dist.init_process_group("gloo", rank=rank, world_size=world, '
        "timeout=timedelta(seconds=10))"
    )
    logs[2].raw(
        "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: "
        f"/default_pg/0//cpu//0/{odd_size - 1}"
    )
    return logs


def test_wait_for_a_rank_past_the_world_blames_the_waiter(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, _silent_larger_world(5)).to_dict()["diagnosis"]
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [2]


def test_wait_for_a_rank_inside_the_world_keeps_the_store_reading(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, _silent_larger_world(4)).to_dict()["diagnosis"]
    assert diagnosis["category"] == "hccl"


# gloo's own check when a rank's number is not below the world size it was handed (values
# our own): `rank < size. 4 vs 4`.
RANK_PAST_SIZE = (
    "[enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/context.cc:23] "
    "rank < size. {rank} vs {size}"
)


def _two_launches() -> list[RankLog]:
    """Six ranks started by two launch scripts, the second one still holding an old world size
    of four: its ranks 4 and 5 stop in gloo's check, its rank 3 gets through the set-up and
    loses its peers, and the first script's ranks 0-2 wait for rank 4's address."""
    logs = [RankLog(rank, 6 if rank < 3 else 4) for rank in range(6)]
    for log in logs[:3]:
        log.at(10500).log(
            "ERROR",
            "model run failed: DistStoreError: wait timeout after 10000ms, keys: "
            "/default_pg/0//cpu//0/4",
        )
    logs[3].layers(0, [" norm passed"]).at(10600).log(
        "ERROR", f"model run failed: RuntimeError: {CLOSED}"
    )
    for log in logs[4:]:
        error = RANK_PAST_SIZE.format(rank=log.rank, size=4)
        log.at(400).log("ERROR", f"model run failed: RuntimeError: {error}")
        log.raw(f"RuntimeError: {error}")
    return logs


def test_a_rank_past_the_size_it_was_given_is_config(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, _two_launches()).to_dict()["diagnosis"]
    assert diagnosis["category"] == "config"
    assert "rank < size. 4 vs 4" in diagnosis["first_error"]["text"]
    assert "hccl" in [alt["category"] for alt in diagnosis["alternatives"]]


def test_ranks_split_evenly_blame_the_size_that_cannot_hold_its_ranks(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, _two_launches()).to_dict()["diagnosis"]
    assert diagnosis["culprit_ranks"] == [3, 4, 5]


def test_an_even_split_with_both_sizes_possible_decides_nothing() -> None:
    scans = [
        scan_text(f"log_{rank}.log", RankLog(rank, 8 if rank < 3 else 6).lines[0] + "\n")
        for rank in range(6)
    ]
    assert odd_world_sizes(scans) is None


def test_plain_start_prints_give_the_world_a_silent_rank_waited_past(tmp_path: Path) -> None:
    """Ranks that print `rank R/4` at start, and rank 3, started with a world of five, failing
    in `init_process_group` on the store key of rank 4 before its own print: config, rank 3."""
    files = {
        f"log_{r}.log": f"rank {r}/4 pid {3535 + r} mode=train\nLayer 0 forward OK\n"
        f"[rank{r}]: RuntimeError: [../gloo/transport/tcp/unbound_buffer.cc:129] Timed out"
        " waiting 20000ms for send operation to complete\n"
        for r in (1, 2)
    }
    files["log_0.log"] = ""
    files["log_3.log"] = (
        "Traceback (most recent call last):\n"
        "torch.distributed.DistStoreError: wait timeout after 20000ms, keys: "
        "/default_pg/0//cpu//0/4\n"
    )
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-w5a1"), AnalyzeOptions(workers=1))
    diagnosis = report.to_dict()["diagnosis"]
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [3]
