"""A real `celery -A config worker` on Redis and the test database, for the e2e tests.

The worker is a separate process, so it must see what a test commits: tests using it run
outside a transaction (`transactional_db`) and hand the worker the test database's name,
the media root and the broker URL through its environment.
"""

from __future__ import annotations

import contextlib
import importlib.util
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
from tests.e2e.redis_server import RedisServer, die_with_this_process

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Worker:
    process: subprocess.Popen
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def _synthetic_bundle(folder: Path, name: str, scale: float) -> Path:
    spec = importlib.util.spec_from_file_location("synth", ROOT / "bench" / "synth.py")
    synth = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synth)
    path = folder / name
    synth.write_bundle(path, ranks=8, scale=scale)
    return path


@pytest.fixture(scope="session")
def big_bundle(tmp_path_factory) -> Path:
    """An 8-rank bundle of ~90 MB of logs (12 MB .tar.gz): about a second of scanning."""
    return _synthetic_bundle(tmp_path_factory.mktemp("bundles"), "job-8-ranks.tar.gz", 1.0)


@pytest.fixture(scope="session")
def long_bundle(tmp_path_factory) -> Path:
    """The same job four times as long (~360 MB of logs): several seconds of scanning even on
    an idle fast machine, so a limit of one or two seconds is always passed."""
    return _synthetic_bundle(tmp_path_factory.mktemp("bundles"), "job-8-ranks-long.tar.gz", 4.0)


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
    with publishing_to(redis_url):
        yield redis_url


@pytest.fixture
def own_redis(tmp_path) -> Iterator[RedisServer]:
    """A redis-server of this test's own, which the test may restart (losing messages)."""
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def producer_on_own_redis(own_redis: RedisServer) -> Iterator[str]:
    with publishing_to(own_redis.url):
        yield own_redis.url


@contextlib.contextmanager
def publishing_to(url: str) -> Iterator[None]:
    conf = celery_app.conf
    saved = (conf.broker_url, conf.broker_transport_options)
    conf.broker_url, conf.broker_transport_options = url, {}
    _forget_connections()
    try:
        yield
    finally:
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


def start_worker(*, broker_url: str, media_root: Path, log_path: Path, env: dict) -> Worker:
    """A real worker process (--concurrency=1) on the test database; stop it with `stop`."""
    full_env = os.environ | {
        "DATABASE_URL": database_url(),
        "REDIS_URL": broker_url,
        "MEDIA_ROOT": str(media_root),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    full_env.pop("RANKLENS_ANALYZER_WORKERS", None)  # the tests check the default
    full_env |= env
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
    command += ["--concurrency=1", "--without-gossip", "--without-mingle"]
    command += ["-n", f"e2e-{uuid.uuid4().hex[:8]}@%h"]
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=full_env,
            stdout=log,
            stderr=log,
            preexec_fn=die_with_this_process,
        )
    return Worker(process, log_path)


def stop(worker: Worker) -> None:
    worker.process.terminate()
    try:
        worker.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.process.kill()
        worker.process.wait()


@pytest.fixture
def worker(
    transactional_db, producer_on_redis, media_root, tmp_path, worker_env
) -> Iterator[Worker]:
    """A real worker process (--concurrency=1) on the test database."""
    started = start_worker(
        broker_url=producer_on_redis,
        media_root=media_root,
        log_path=tmp_path / "worker.log",
        env=worker_env,
    )
    yield started
    stop(started)


@pytest.fixture
def workers(transactional_db, media_root, tmp_path) -> Iterator[list[Worker]]:
    """Workers a test starts itself (`worker_helpers.launch`); all stopped at the end."""
    started: list[Worker] = []
    yield started
    for worker in started:
        if worker.process.poll() is None:
            stop(worker)


@pytest.fixture
def celery_worker(worker: Worker) -> Path:
    """The worker's log path (the worker itself runs while the test does)."""
    return worker.log
