"""Helpers for tests that drive a real Celery worker: waiting for runs, watching processes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from incidents.models import AnalysisRun, Incident, RunState
from tests.e2e.conftest import Worker, start_worker

DONE_TIMEOUT_S = 120
# Timings shortened through the settings' environment variables.
FAST_LIFECYCLE = {
    "RANKLENS_HEARTBEAT_SECONDS": "1",
    "RANKLENS_HEARTBEAT_STALE_SECONDS": "6",
    "RANKLENS_QUEUED_GRACE_SECONDS": "2",
    "RANKLENS_SWEEP_SECONDS": "1",
}
WAIT_S = 60


def launch(
    workers: list[Worker], broker_url: str, media_root: Path, tmp_path: Path, **env: str
) -> Worker:
    """Start a worker with FAST_LIFECYCLE (and `env`) into the `workers` fixture's list."""
    log_path = tmp_path / f"worker-{len(workers)}.log"
    worker = start_worker(
        broker_url=broker_url,
        media_root=media_root,
        log_path=log_path,
        env=FAST_LIFECYCLE | env,
    )
    workers.append(worker)
    return worker


def wait_for(predicate, what: str, worker: Worker) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{worker.log_text()}")


def is_under_way(run: AnalysisRun) -> bool:
    run.refresh_from_db()
    assert run.state in (RunState.QUEUED, RunState.RUNNING), (run.state, run.error)
    return run.state == RunState.RUNNING and run.progress > 0


def wait_until_finished(run: AnalysisRun, worker_log: Path) -> AnalysisRun:
    deadline = time.monotonic() + DONE_TIMEOUT_S
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.state in (RunState.DONE, RunState.FAILED):
            return run
        time.sleep(0.5)
    pytest.fail(
        f"run still {run.state} after {DONE_TIMEOUT_S}s; worker log:\n{worker_log.read_text()}"
    )


def upload(client, token: str, bundle: Path) -> AnalysisRun:
    """Upload through the API; the new incident's run (its message is sent on commit)."""
    with bundle.open("rb") as fh:
        created = client.post(
            "/api/incidents/", {"bundle": fh}, headers={"Authorization": f"Bearer {token}"}
        )
    assert created.status_code == 201, created.content
    number = int(created.json()["id"].removeprefix("INC-"))
    return Incident.objects.get(pk=number).latest_run()


def children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is `pid`, from /proc (Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat and stat[1] == str(pid) and stat[0] != "Z":
                found.append(int(entry))
    return found


def is_running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie waiting for a parent to reap it."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def _stat(pid: int) -> list[str] | None:
    """[state, ppid, ...] of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
