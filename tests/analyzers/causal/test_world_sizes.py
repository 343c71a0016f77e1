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
from analyzers.causal.world_sizes import odd_world_sizes, ranks_started_twice
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


# --- a rank number handed to two processes ------------------------------------------------
# docs/labelling.md#ranks-started-with-the-same-rank


def _same_rank_twice(stated: tuple[int, ...]) -> dict[str, str]:
    """Four processes, each writing `log_<slot>.log`, started with the ranks in `stated`: every
    one waits in the store for the address of the rank nobody was given."""
    files = {}
    for slot, rank in enumerate(stated):
        log = RankLog(rank, len(stated))
        log.lines = log.lines[:1]
        log.raw(
            "[W1206 22:18:48.344587021 socket.cpp:494] [c10d] waitForInput: socket SocketImpl("
            f"fd=4, addr=[::ffff:127.0.0.1]:3971{slot}, remote=[::ffff:127.0.0.1]:29938) timed "
            "out after 20000ms"
        )
        log.raw("Traceback (most recent call last):")
        log.raw(
            "torch.distributed.DistStoreError: wait timeout after 20000ms, keys: "
            "/default_pg/0//cpu//0/2"
        )
        files[f"log_{slot}.log"] = log.text()
    files["env.txt"] = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=29938\n"
    return files


def test_a_process_started_with_another_ranks_number_is_config_and_blamed(
    tmp_path: Path,
) -> None:
    """The launch hands rank 1 to the processes of log_1 and log_2: nobody publishes rank 2's
    address and all four wait for it. log_2's start line states rank 1: config, its rank."""
    files = _same_rank_twice((0, 1, 1, 3))
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-d1"), AnalyzeOptions(workers=1))
    diagnosis = report.to_dict()["diagnosis"]
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [2]
    assert "hccl" in [alt["category"] for alt in diagnosis["alternatives"]]


def test_ranks_that_each_state_their_own_number_keep_the_store_reading(tmp_path: Path) -> None:
    """Counterexample: every file states its own rank; the same waits are the store's."""
    files = _same_rank_twice((0, 1, 2, 3))
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-d2"), AnalyzeOptions(workers=1))
    assert report.to_dict()["diagnosis"]["category"] == "hccl"


def test_start_ranks_name_the_file_that_repeats_another_ranks_number() -> None:
    scans = [
        scan_text(f"log_{slot}.log", RankLog(rank, 4).lines[0] + "\n")
        for slot, rank in enumerate((0, 1, 1, 3))
    ]
    assert ranks_started_twice(scans) == (2,)


def test_a_file_stating_a_number_no_other_file_holds_is_not_a_repeat() -> None:
    # a file numbered by the launcher's slot that states a rank of its own (log_2 says rank 5
    # of a job whose files are 0-3) repeats nobody
    scans = [
        scan_text(f"log_{slot}.log", RankLog(rank, 8).lines[0] + "\n")
        for slot, rank in enumerate((0, 1, 5, 3))
    ]
    assert ranks_started_twice(scans) is None
