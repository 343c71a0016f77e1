"""A watchdog script that stops a job whose ranks stopped advancing
(docs/labelling.md#a-watchdog-that-stopped-a-stalled-job).

The watchdog's log says it saw no progress for some time and then signalled the ranks
(`no progress for 8s, last heartbeat 04:57:05`, `SIGTERM to rank 0 pid 9092`). That is a stop
from outside made because the job had stalled: no rank's failure, and the ranks' checkpoints or
the dumps the watchdog took first say who stalled.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import diagnose_text
from tests.analyzers.job_bundles import RankLog, bundle

WATCHDOG = (
    "2026-11-29 07:24:21,900 watchdog: watching heartbeats in hb/, stall limit 8s\n"
    "2026-11-29 07:25:03,993 watchdog: no progress for 8s, last heartbeat 07:24:55; ranks [0, 1, 2, 3]\n"
    "2026-11-29 07:25:04,312 watchdog: py-spy dump of rank 0 (pid 9092) -> stacks/py-spy_rank0.txt\n"
    "2026-11-29 07:25:07,299 watchdog: SIGTERM to rank 0 pid 9092\n"
    "2026-11-29 07:25:07,299 watchdog: SIGTERM to rank 1 pid 9094\n"
    "2026-11-29 07:25:07,300 watchdog: SIGTERM to rank 2 pid 9101\n"
    "2026-11-29 07:25:07,300 watchdog: SIGTERM to rank 3 pid 9105\n"
)


def _spy(pid: int, inner: str) -> str:
    return (
        f"Process {pid}: /work/torchenv/bin/python -u /work/heldout/infer.py\n"
        "Python v3.11.7 (/root/.pyenv/versions/3.11.7/bin/python3.11)\n\n"
        f'Thread {pid} (active+gil): "MainThread"\n'
        f"    {inner}\n"
        "    Module._call_impl (torch/nn/modules/module.py:1789)\n"
        "    Layer.forward (infer.py:175)\n"
        "    run_model (infer.py:291)\n"
        "    main (infer.py:354)\n"
        "    <module> (infer.py:368)\n"
    )


def _job(tmp_path: Path, spinning: int | None) -> Path:
    logs, extra = [], {"watchdog.log": WATCHDOG}
    for rank in range(4):
        logs.append(RankLog(rank, 4).layers(2, [" norm passed"]))
        inner = (
            "wait_rope_cache (infer.py:113)"
            if rank == spinning
            else "all_reduce (torch/distributed/distributed_c10d.py:3252)"
        )
        extra[f"stacks/py-spy_rank{rank}.txt"] = _spy(9092 + rank, inner)
    return bundle(tmp_path, logs, 4, extra)


def test_a_watchdog_stop_after_a_stall_is_a_hang_its_dumps_blame(tmp_path: Path) -> None:
    diagnosis = analyze(_job(tmp_path, 1), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]
    line = diagnosis.first_error.text if diagnosis.first_error else ""
    assert "SIGTERM to rank" not in line


def test_a_watchdog_stop_whose_dumps_name_no_one_is_still_a_hang(tmp_path: Path) -> None:
    diagnosis = analyze(_job(tmp_path, None), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == []


def test_the_watchdog_record_alone_reads_as_a_stall() -> None:
    diagnosis = diagnose_text("watchdog.log", WATCHDOG)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is not None
    assert "no progress for 8s" in diagnosis.first_error.text
