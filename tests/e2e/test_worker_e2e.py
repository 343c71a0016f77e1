"""End to end: HTTP API upload -> Redis -> a real `celery -A config worker` -> stored report.

The worker is a separate process, so it must see what this test commits: the test
runs outside a transaction (`transaction=True`) and hands the worker the test
database's name, the media root and the broker URL through its environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

from config.celery import app as celery_app
from incidents.models import AnalysisRun, Incident, RunState

ROOT = Path(__file__).resolve().parents[2]
DONE_TIMEOUT_S = 120

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def redis_url() -> str:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError as error:
        pytest.skip(f"Redis at {url} is unreachable ({error}); start redis-server or set REDIS_URL")
    return url


@pytest.fixture
def producer_on_redis(redis_url: str) -> Iterator[str]:
    """Make this process publish to Redis even if settings chose the filesystem broker."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.broker_transport_options)
    conf.broker_url, conf.broker_transport_options = redis_url, {}
    _forget_connections()
    yield redis_url
    conf.broker_url, conf.broker_transport_options = saved
    _forget_connections()


def _forget_connections() -> None:
    """Celery caches its broker pools; drop them so the next send uses the new URL."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def database_url() -> str:
    """A URL for the database this test runs on (the test database, not the main one)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = quote(db["USER"] or "", safe="")
    auth = f"{user}:{quote(db['PASSWORD'], safe='')}@" if db["PASSWORD"] else f"{user}@"
    return f"postgres://{auth}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def celery_worker(transactional_db, producer_on_redis, media_root, tmp_path) -> Iterator[Path]:
    """A real worker process on the test database; yields the path of its log."""
    env = os.environ | {
        "DATABASE_URL": database_url(),
        "REDIS_URL": producer_on_redis,
        "MEDIA_ROOT": str(media_root),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    log_path = tmp_path / "worker.log"
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
    command += ["--concurrency=1", "--without-gossip", "--without-mingle"]
    command += ["-n", f"e2e-{uuid.uuid4().hex[:8]}@%h"]
    with log_path.open("wb") as log:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    yield log_path
    worker.terminate()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


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


def test_api_upload_is_analyzed_by_a_real_worker(
    client, alice, alice_token, crash_bundle, celery_worker
):
    headers = {"Authorization": f"Bearer {alice_token}"}
    with crash_bundle.open("rb") as fh:
        created = client.post("/api/incidents/", {"bundle": fh}, headers=headers)
    assert created.status_code == 201
    incident = Incident.objects.get()

    run = wait_until_finished(incident.latest_run(), celery_worker)

    assert run.state == RunState.DONE, run.error
    assert run.report["bundle"]["name"] == "crash_one_rank.tar.gz"
    assert run.report["bundle"]["sha256"] == incident.bundle.sha256
    assert {r["rank"] for r in run.report["ranks"]} == {0, 1, 2, 3}
    status = client.get(created.json()["status_url"], headers=headers).json()
    assert (status["status"], status["progress"]) == ("done", 100)
    assert status["report"] == run.report
    client.force_login(alice)
    page = client.get(incident.get_absolute_url()).content.decode()
    assert page.count("badge-rank-") == 4
