"""Messages in the local folder queue (`make run` without Redis) name their runs too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.celery import app as celery_app
from incidents.runs.broker import runs_in_flight
from incidents.runs.tasks import analyze_bundle


@pytest.fixture
def folder_broker(tmp_path) -> Iterator[None]:
    conf = celery_app.conf
    saved = (conf.broker_url, conf.broker_transport_options)
    folder, control = tmp_path / "queue", tmp_path / "control"
    folder.mkdir()
    control.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(control),  # else kombu writes into the working directory
    }
    conf.broker_url, conf.broker_transport_options = "filesystem://", options
    _forget_connections()
    yield
    conf.broker_url, conf.broker_transport_options = saved
    _forget_connections()


def _forget_connections() -> None:
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_waiting_messages_in_the_folder_name_their_runs(folder_broker):
    analyze_bundle.delay(45)
    analyze_bundle.delay(46)

    assert runs_in_flight(celery_app) == {45, 46}


def test_an_empty_folder_has_none(folder_broker):
    assert runs_in_flight(celery_app) == set()


def _message(run_id: int, task_id: str) -> dict:
    import base64
    import json

    body = base64.b64encode(json.dumps([[run_id], {}, {}]).encode()).decode()
    headers = {"task": "incidents.tasks.analyze_bundle", "id": task_id}
    return {"headers": headers, "body": body, "properties": {"body_encoding": "base64"}}


def test_a_delivered_message_counts_only_while_a_live_worker_holds_it():
    from incidents.runs.broker import _run_ids, held_only

    delivered = [_message(1, "a"), _message(2, "b")]

    assert set(_run_ids(held_only(delivered, lambda: {"b"}))) == {2}
    assert set(_run_ids(held_only(delivered, set))) == set()  # their workers died
    assert set(_run_ids(held_only(delivered, lambda: None))) == {1, 2}  # cannot ask


def test_the_workers_are_not_asked_when_no_analysis_was_delivered():
    from incidents.runs.broker import held_only

    def never() -> set[str]:
        raise AssertionError("asked")

    assert held_only([], never) == []


def test_the_workers_are_asked_only_about_delivered_messages_of_queued_runs():
    from incidents.runs.broker import _run_ids, held_only

    def never() -> set[str]:
        raise AssertionError("asked")

    running = [_message(1, "a")]  # an analysis under way: its run is running, not queued
    assert held_only(running, never, about={2}) == running
    assert set(_run_ids(held_only(running, set, about={1}))) == set()
