"""A real `celery -A config worker` on Redis and the test database, for the e2e tests.

The worker is a separate process, so it must see what a test commits: tests using it run
outside a transaction (`transactional_db`) and hand the worker the test database's name,
the media root and the broker URL through its environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Worker:
    process: subprocess.Popen
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


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
def worker_env() -> dict[str, str]:
    """Extra environment for the worker; a test may add to it before using `worker`."""
    return {}


@pytest.fixture
def worker(
    transactional_db, producer_on_redis, media_root, tmp_path, worker_env
) -> Iterator[Worker]:
    """A real worker process (--concurrency=1) on the test database."""
    env = os.environ | {
        "DATABASE_URL": database_url(),
        "REDIS_URL": producer_on_redis,
        "MEDIA_ROOT": str(media_root),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("RANKLENS_ANALYZER_WORKERS", None)  # the tests check the default
    env |= worker_env
    log_path = tmp_path / "worker.log"
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
    command += ["--concurrency=1", "--without-gossip", "--without-mingle"]
    command += ["-n", f"e2e-{uuid.uuid4().hex[:8]}@%h"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    yield Worker(process, log_path)
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def celery_worker(worker: Worker) -> Path:
    """The worker's log path (the worker itself runs while the test does)."""
    return worker.log
