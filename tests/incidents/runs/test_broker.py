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
