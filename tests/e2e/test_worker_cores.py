"""The Celery worker analyses a bundle on several processes, and they die with it.

The worker's pool child is daemonic; multiprocessing would refuse to start scanners there.
These tests watch the worker's process tree from /proc while a real upload is analysed:
worker main process -> pool child (runs the task) -> scanner processes.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from incidents.models import AnalysisRun, RunState
from tests.e2e.worker_helpers import children, is_running, upload, wait_until_finished

WATCH_TIMEOUT_S = 60
POLL_S = 0.01

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def worker_env() -> dict[str, str]:
    # The default (one scanner per CPU) is what is tested; a 1-CPU runner still needs two.
    return {} if (os.cpu_count() or 1) >= 2 else {"RANKLENS_ANALYZER_WORKERS": "2"}


def _scanners(worker_pid: int) -> dict[int, list[int]]:
    """Pool child pid -> its own children (the scanners), for every pool child."""
    return {child: children(child) for child in children(worker_pid)}


def _watch_for_scanners(worker, run: AnalysisRun) -> tuple[int, list[int]]:
    """Poll the process tree until a pool child has two scanners: (its pid, theirs)."""
    deadline = time.monotonic() + WATCH_TIMEOUT_S
    next_run_check = 0.0
    while time.monotonic() < deadline:
        assert worker.process.poll() is None, worker.log_text()
        for pool_child, scanners in _scanners(worker.process.pid).items():
            if len(scanners) >= 2:
                return pool_child, scanners
        if time.monotonic() > next_run_check:  # a run that ended will start no scanners
            run.refresh_from_db()
            assert run.state in (RunState.QUEUED, RunState.RUNNING), (run.state, run.error)
            next_run_check = time.monotonic() + 0.5
        time.sleep(POLL_S)
    pytest.fail(f"no scanner processes appeared; worker log:\n{worker.log_text()}")


def test_an_analysis_in_the_worker_scans_on_several_processes(
    client, alice, alice_token, big_bundle, worker
):
    run = upload(client, alice_token, big_bundle)

    _, scanners = _watch_for_scanners(worker, run)
    run = wait_until_finished(run, worker.log)

    assert run.state == RunState.DONE, run.error
    assert {r["rank"] for r in run.report["ranks"]} == set(range(8))
    assert run.report["diagnosis"]["culprit_ranks"] == [4]
    assert not [pid for pid in scanners if is_running(pid)], "scanners outlived the analysis"


def test_scanners_die_with_a_killed_pool_child_and_the_run_is_retried(
    client, alice, alice_token, big_bundle, worker
):
    """SIGKILL is what a pool child gets at the hard time limit (or from the OOM killer)."""
    run = upload(client, alice_token, big_bundle)
    pool_child, scanners = _watch_for_scanners(worker, run)

    os.kill(pool_child, signal.SIGKILL)

    deadline = time.monotonic() + 5
    while any(is_running(pid) for pid in scanners) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in scanners if is_running(pid)], "scanners outlived their parent"
    run = wait_until_finished(run, worker.log)  # redelivered to a fresh pool child
    assert run.state == RunState.DONE, run.error
    assert run.attempts == 2
