"""Ranks whose own start lines give another world size than the rest.

Example: rank 3 of four is started with WORLD_SIZE=5; it waits in the store for a key of rank
4, rank 2 waits in its first collective, ranks 0 and 1 cannot connect their mesh: every line is
a wait, and rank 3's `world_size=5` is the odd one: `config`, rank 3, `hccl` beside it.
Counterexample: all ranks state the same size: the waits keep the store's reading.

docs/labelling.md#ranks-started-with-different-world-sizes
"""

from __future__ import annotations

from pathlib import Path

from analyzers.causal.world_sizes import odd_world_sizes
from tests.analyzers.job_bundles import RECV_TIMEOUT, RankLog, analyze_job

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
