"""More faults around a run, with real processes (see test_run_lifecycle.py for the others).

- the whole worker is SIGKILLed after it took a run's message but before it claimed the run;
- Redis' keys are flushed while a run waits and while one runs;
- the database refuses writes (read-only) for a while during an analysis;
- the broker is down when the bundle is uploaded;
- an analysis runs past the task's time limit;
- two workers get a message for the same run at once.
"""

from __future__ import annotations

import os
import signal
import socket
import time

import psycopg
import pytest
import redis
from django.db import connection

from incidents.models import RunState
from incidents.runs.tasks import analyze_bundle
from tests.db_faults import needs_postgresql, terminate_connections
from tests.e2e.conftest import publishing_to
from tests.e2e.worker_helpers import (
    FAST_LIFECYCLE,
    children,
    is_under_way,
    launch,
    upload,
    wait_for,
    wait_until_finished,
)

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def _unacked(url: str) -> int:
    return redis.Redis.from_url(url).hlen("unacked")


def test_a_run_whose_worker_died_holding_its_message_is_sent_again(
    client,
    alice_token,
    crash_bundle,
    own_redis,
    producer_on_own_redis,
    workers,
    media_root,
    tmp_path,
):
    first = launch(workers, own_redis.url, media_root, tmp_path)
    wait_for(lambda: "ready." in first.log_text(), "the worker to start", first)
    (pool_child,) = children(first.process.pid)
    os.kill(pool_child, signal.SIGSTOP)  # it will never start the task it is handed
    run = upload(client, alice_token, crash_bundle)
    wait_for(lambda: _unacked(own_redis.url) == 1, "the message to be taken", first)

    os.kill(first.process.pid, signal.SIGKILL)
    os.kill(pool_child, signal.SIGKILL)
    first.process.wait()
    run.refresh_from_db()
    assert run.state == RunState.QUEUED
    second = launch(workers, own_redis.url, media_root, tmp_path)
    run = wait_until_finished(run, second.log)

    assert run.state == RunState.DONE, run.error
    assert run.attempts == 1


def test_runs_survive_redis_losing_its_keys(
    client,
    alice_token,
    big_bundle,
    crash_bundle,
    own_redis,
    producer_on_own_redis,
    workers,
    media_root,
    tmp_path,
):
    worker = launch(workers, own_redis.url, media_root, tmp_path)
    busy = upload(client, alice_token, big_bundle)
    wait_for(lambda: is_under_way(busy), "the first analysis to start", worker)
    waiting = upload(client, alice_token, crash_bundle)

    redis.Redis.from_url(own_redis.url).flushall()

    assert wait_until_finished(busy, worker.log).state == RunState.DONE
    waiting = wait_until_finished(waiting, worker.log)
    assert waiting.state == RunState.DONE, waiting.error
    assert waiting.attempts == 1


@pytest.fixture
def worker_env() -> dict[str, str]:
    # The `worker` of the read-only test: its heartbeat stops while writes are refused, and
    # that test is about the worker's own writes, not the sweeper's patience.
    return FAST_LIFECYCLE | {"RANKLENS_HEARTBEAT_STALE_SECONDS": "30"}


def _set_read_only(on: bool) -> None:
    db = connection.settings_dict
    value = "on" if on else "off"
    with psycopg.connect(
        dbname="postgres",
        user=db["USER"] or None,
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        autocommit=True,
    ) as admin:
        admin.execute(f'ALTER DATABASE "{db["NAME"]}" SET default_transaction_read_only = {value}')
    terminate_connections()  # every session opens again with the new default
    connection.close()


def test_a_run_survives_the_database_refusing_writes_for_a_while(
    client, alice_token, big_bundle, worker
):
    needs_postgresql()
    run = upload(client, alice_token, big_bundle)
    wait_for(lambda: is_under_way(run), "the analysis to start", worker)

    _set_read_only(True)
    try:  # until the analysis is over and its report waits to be stored
        wait_for(lambda: "storing the outcome" in worker.log_text(), "the final write", worker)
    finally:
        _set_read_only(False)

    run = wait_until_finished(run, worker.log)
    assert run.state == RunState.DONE, (run.error, worker.log_text())
    assert run.attempts == 1, worker.log_text()  # stored by the first analysis, not redone


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_upload_while_the_broker_is_down_ends_with_a_reason(
    client, alice_token, crash_bundle, transactional_db
):
    with publishing_to(f"redis://127.0.0.1:{_closed_port()}/0"):
        started = time.monotonic()
        run = upload(client, alice_token, crash_bundle)
        took = time.monotonic() - started

    run.refresh_from_db()
    assert run.state == RunState.FAILED
    assert "task queue could not be reached" in run.error
    assert run.finished_at is not None
    assert run.step == ""
    assert took < 10


def test_an_analysis_over_the_time_limit_fails_with_a_reason(
    client,
    alice_token,
    long_bundle,
    own_redis,
    producer_on_own_redis,
    workers,
    media_root,
    tmp_path,
):
    # The worker's limit decides (this process's settings keep the default hour).
    worker = launch(workers, own_redis.url, media_root, tmp_path, RANKLENS_TASK_TIME_LIMIT="2")
    run = upload(client, alice_token, long_bundle)
    run = wait_until_finished(run, worker.log)

    assert run.state == RunState.FAILED
    assert "longer than its time limit (2 s)" in run.error, (run.error, worker.log_text())
    # on a loaded machine the limit can run out while the claim is on its way to the
    # database: the sweeper must not find that claim running and analyse the bundle again
    assert run.attempts == 1
    assert run.finished_at is not None


def test_an_analysis_killed_at_the_hard_time_limit_fails_with_a_reason(
    client,
    alice_token,
    long_bundle,
    own_redis,
    producer_on_own_redis,
    workers,
    media_root,
    tmp_path,
):
    # A one-second limit has no room for a soft one: the pool child is killed outright.
    worker = launch(workers, own_redis.url, media_root, tmp_path, RANKLENS_TASK_TIME_LIMIT="1")
    run = upload(client, alice_token, long_bundle)
    run = wait_until_finished(run, worker.log)

    assert run.state == RunState.FAILED
    assert "longer than its time limit (1 s)" in run.error, (run.error, worker.log_text())
    assert "Hard time limit (1s) exceeded" in worker.log_text()
    assert run.attempts == 1


def test_two_workers_racing_for_one_run_analyze_it_once(
    client, alice_token, big_bundle, own_redis, producer_on_own_redis, workers, media_root, tmp_path
):
    both = [launch(workers, own_redis.url, media_root, tmp_path) for _ in range(2)]
    for worker in both:
        wait_for(lambda w=worker: "ready." in w.log_text(), "the workers to start", worker)
    run = upload(client, alice_token, big_bundle)
    analyze_bundle.delay(run.pk)  # a second message for the same run (a resend, a retry)
    analyze_bundle.delay(run.pk)

    run = wait_until_finished(run, both[0].log)

    assert run.state == RunState.DONE, run.error
    assert run.attempts == 1
    logs = both[0].log_text() + both[1].log_text()
    assert logs.count("not claimable") == 2, logs
