"""DDP's shape check compares every rank with process 0: which side is the odd one.

Every rank whose parameter shapes differ from the ones process 0 broadcast raises `...
appears not to match sizes of the same param in process 0`; all name process 0. Example: ranks
1 to 3 raise it, rank 0 (the one built with another hidden size) only loses its peers: rank 0
is the culprit. Counterexample: only rank 2 raises it, the others lose it: rank 2 is. An even
split names no one. The label stays `config`.

docs/labelling.md#ddp-finds-the-ranks-hold-different-models
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import CLOSED, RankLog, analyze_job, ranks


def _shape_check(log: RankLog) -> None:
    log.fails(
        f"RuntimeError: [{log.rank}]: params[0] in this process with sizes [64, 64] appears "
        "not to match sizes of the same param in process 0.",
        frame="wrap_model",
    )


def _run(tmp_path: Path, raising: set[int], world: int = 4) -> dict:
    logs = ranks(world)
    for log in logs:
        log.loaded()
        if log.rank in raising:
            _shape_check(log.at(300))
        else:
            log.at(420).log("ERROR", f"model run failed: {CLOSED}")
    return analyze_job(tmp_path, logs).to_dict()["diagnosis"]


def test_most_ranks_differ_from_process_0_blames_process_0(tmp_path: Path) -> None:
    diagnosis = _run(tmp_path, {1, 2, 3})
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [0]


def test_one_rank_differing_from_process_0_is_the_culprit(tmp_path: Path) -> None:
    diagnosis = _run(tmp_path, {2})
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [2]


def test_even_split_names_no_one(tmp_path: Path) -> None:
    diagnosis = _run(tmp_path, {1}, world=3)
    assert diagnosis["culprit_ranks"] == []
