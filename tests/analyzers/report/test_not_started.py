"""A launcher that gave up before starting any worker: no rank ran, so none is missing.

docs/labelling.md#a-launcher-that-never-started-its-workers. Fixtures follow torchrun's
traceback for a c10d rendezvous that never completed, with paths, ports and sizes of our own.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.core.report import Report

ENV = "NNODES=2\nNPROC_PER_NODE=3\nRDZV_BACKEND=c10d\nRDZV_ENDPOINT=10.1.0.4:31877\n"


def agent_gave_up(error: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/bin/torchrun", line 8, in <module>\n'
        "    sys.exit(main())\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/elastic/agent/'
        'server/api.py", line 540, in _rendezvous\n'
        "    rdzv_info = spec.rdzv_handler.next_rendezvous()\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/elastic/rendezvous/'
        'dynamic_rendezvous.py", line 690, in run\n'
        "    raise RendezvousTimeoutError\n"
        f"{error}\n"
    )


RENDEZVOUS_TIMEOUT = "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"
STORE_TIMEOUT = "torch.distributed.DistStoreError: Socket Timeout"


def run(tmp_path: Path, files: dict[str, str]) -> Report:
    job = tmp_path / "job-3f0a"
    for name, text in files.items():
        (job / name).parent.mkdir(parents=True, exist_ok=True)
        (job / name).write_text(text)
    return analyze(job, AnalyzeOptions(workers=1))


def test_a_rendezvous_that_never_completed_started_no_worker(tmp_path: Path) -> None:
    report = run(tmp_path, {"env.txt": ENV, "launcher.log": agent_gave_up(RENDEZVOUS_TIMEOUT)})
    facts = report.to_dict()
    assert facts["world_size"] == 6
    assert facts["ranks"] == []
    assert facts["correlation"]["missing_ranks"] == []
    assert facts["correlation"]["workers_started"] is False
    assert facts["bundle"]["limits"] == []  # a rank never started lost no log
    assert "No worker process was started" in report.diagnosis.root_cause
    assert "worker" in (report.diagnosis.root_cause_zh or "")


def test_ranks_that_wrote_a_line_ran(tmp_path: Path) -> None:
    """Counterexample: a rank of the job left its own log, so the workers did start."""
    report = run(
        tmp_path,
        {
            "env.txt": ENV,
            "launcher.log": agent_gave_up(RENDEZVOUS_TIMEOUT),
            "log_0.log": "2026-06-02 10:01:02,100 [rank0] INFO prefill passed\n",
        },
    )
    facts = report.to_dict()
    assert facts["correlation"]["workers_started"] is True
    assert facts["ranks"]
    assert "No worker process was started" not in report.diagnosis.root_cause


def test_a_launcher_failure_of_another_kind_keeps_its_missing_ranks(tmp_path: Path) -> None:
    """Counterexample: a store that timed out says nothing about workers never starting."""
    report = run(tmp_path, {"env.txt": ENV, "launcher.log": agent_gave_up(STORE_TIMEOUT)})
    facts = report.to_dict()
    assert facts["correlation"]["workers_started"] is True
    assert facts["correlation"]["missing_ranks"] == [0, 1, 2, 3, 4, 5]
