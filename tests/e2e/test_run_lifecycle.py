"""Faults around a running analysis, with real processes: every run still ends.

- the database drops every connection while the worker analyzes;
- Redis restarts without persistence, losing the queued runs' messages;
- the whole worker (main process and pool child) is SIGKILLed mid-run.

Timings are shortened through the settings' environment variables.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from django.db import connection

from incidents.models import RunState
from tests.db_faults import needs_postgresql, terminate_connections
from tests.e2e.worker_helpers import (
    FAST_LIFECYCLE,
    WAIT_S,
    children,
    is_under_way,
    launch,
    upload,
    wait_for,
    wait_until_finished,
)

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def worker_env() -> dict[str, str]:
    return dict(FAST_LIFECYCLE)


def test_a_run_survives_the_database_dropping_its_connections(
    client, alice_token, big_bundle, worker
):
    needs_postgresql()
    run = upload(client, alice_token, big_bundle)
    wait_for(lambda: is_under_way(run), "the analysis to start", worker)

    # Again and again until the run ends: its progress, heartbeat and final writes all
    # find their connection gone.
    deadline = time.monotonic() + WAIT_S
    while run.state not in (RunState.DONE, RunState.FAILED) and time.monotonic() < deadline:
        terminate_connections()
        connection.close()  # this test's connection was one of them
        time.sleep(0.3)
        run.refresh_from_db()

    assert run.state in (RunState.DONE, RunState.FAILED), worker.log_text()
    met = ("progress not written", "heartbeat not written", "database connection lost")
    assert any(sign in worker.log_text() for sign in met), worker.log_text()
    if run.state == RunState.DONE:
        assert {r["rank"] for r in run.report["ranks"]} == set(range(8))
    else:
        assert run.error


def test_runs_whose_messages_a_redis_restart_lost_are_sent_again_and_finish(
    client,
    alice_token,
    crash_bundle,
    own_redis,
    producer_on_own_redis,
    workers,
    media_root,
    tmp_path,
):
    runs = [upload(client, alice_token, crash_bundle) for _ in range(2)]
    own_redis.restart()  # no persistence: both messages are gone
    worker = launch(workers, own_redis.url, media_root, tmp_path)

    finished = [wait_until_finished(run, worker.log) for run in runs]

    assert [run.state for run in finished] == [RunState.DONE, RunState.DONE]
    assert [run.attempts for run in finished] == [1, 1]  # each analyzed once
    assert all(run.requeues >= 1 for run in finished)


def test_a_run_survives_redis_restarting_under_a_busy_worker(
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
    waiting = upload(client, alice_token, crash_bundle)  # behind it, in Redis only

    own_redis.restart()

    assert wait_until_finished(busy, worker.log).state == RunState.DONE
    waiting = wait_until_finished(waiting, worker.log)
    assert waiting.state == RunState.DONE, waiting.error
    assert waiting.attempts == 1  # analyzed once, however many messages were sent
    assert waiting.requeues >= 1


def test_a_run_whose_whole_worker_was_killed_is_run_again_by_the_next_worker(
    client, alice_token, big_bundle, producer_on_redis, workers, media_root, tmp_path
):
    first = launch(workers, producer_on_redis, media_root, tmp_path)
    run = upload(client, alice_token, big_bundle)
    wait_for(lambda: is_under_way(run), "the analysis to start", first)
    pool = children(first.process.pid)

    os.kill(first.process.pid, signal.SIGKILL)  # the main process first: nobody requeues
    for pid in pool:
        os.kill(pid, signal.SIGKILL)
    first.process.wait()
    second = launch(workers, producer_on_redis, media_root, tmp_path)
    run = wait_until_finished(run, second.log)

    assert run.state == RunState.DONE, run.error
    assert run.attempts == 2
    assert "the previous worker stopped answering" in second.log_text()
