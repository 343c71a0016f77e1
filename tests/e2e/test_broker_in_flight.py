"""The sweeper asks Redis which runs still have a message waiting or being worked on."""

from __future__ import annotations

import pytest

from config.celery import app as celery_app
from incidents.runs.broker import runs_in_flight
from incidents.runs.tasks import analyze_bundle

pytestmark = pytest.mark.redis


def test_waiting_messages_name_their_runs(producer_on_own_redis):
    analyze_bundle.delay(41)
    analyze_bundle.delay(42)

    assert runs_in_flight(celery_app) == {41, 42}


def test_a_restarted_redis_has_none(own_redis, producer_on_own_redis):
    analyze_bundle.delay(41)

    own_redis.restart()

    assert runs_in_flight(celery_app) == set()


def test_a_delivered_message_counts_while_a_live_worker_holds_it(producer_on_own_redis):
    task_id = analyze_bundle.delay(43).id
    with celery_app.connection_for_read() as conn:
        queue = conn.SimpleQueue(celery_app.conf.task_default_queue, no_ack=False)
        message = queue.get(timeout=5)  # taken, as a worker does with acks_late

        assert runs_in_flight(celery_app, held=lambda: {task_id}) == {43}
        # Its worker died before acknowledging it: Redis keeps it for over an hour.
        assert runs_in_flight(celery_app, held=set) == set()
        # No worker answers the broadcast (this consumer is none): nobody holds it.
        assert runs_in_flight(celery_app) == set()
        # The workers cannot be asked: it still counts.
        assert runs_in_flight(celery_app, held=lambda: None) == {43}
        message.ack()
    assert runs_in_flight(celery_app, held=lambda: {task_id}) == set()


def test_a_broker_that_cannot_be_inspected_vouches_for_nothing():
    saved = celery_app.conf.broker_url
    celery_app.conf.broker_url = "memory://"
    try:
        assert runs_in_flight(celery_app) is None
    finally:
        celery_app.conf.broker_url = saved
