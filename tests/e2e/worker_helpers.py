"""Helpers for tests that drive a real Celery worker: waiting for runs, watching processes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from incidents.models import AnalysisRun, Incident, RunState

DONE_TIMEOUT_S = 120


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
