"""Services: titles, queueing on commit, a broker that is down."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from kombu.exceptions import OperationalError

from incidents.models import Incident, RunState
from incidents.runs import services
from incidents.runs.tasks import analyze_bundle


@pytest.mark.parametrize(
    ("file_name", "title"),
    [
        ("job-42.tar.gz", "job-42"),
        ("JOB.TGZ", "JOB"),
        ("logs.zip", "logs"),
        ("node3.tar.zst", "node3"),
        ("node3.tar.xz", "node3"),
        ("log_0.log", "log_0"),
        ("plog-1234_20240101.log.gz", "plog-1234_20240101.log"),
        ("npu-smi.txt", "npu-smi"),
        ("weird-name", "weird-name"),
        (".tar.gz", ".tar.gz"),
    ],
)
def test_default_title_is_the_bundle_name_without_its_extension(file_name, title):
    assert services.default_title(file_name) == title


@pytest.fixture
def upload(crash_bundle) -> SimpleUploadedFile:
    return SimpleUploadedFile(crash_bundle.name, crash_bundle.read_bytes())


@pytest.mark.django_db
def test_task_is_sent_once_the_incident_is_committed(
    upload, alice, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[int] = []
    monkeypatch.setattr(analyze_bundle, "delay", sent.append)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        incident = services.incident_create(upload=upload, created_by=alice)
        assert sent == []
    for callback in callbacks:
        callback()

    assert sent == [incident.latest_run().pk]


@pytest.mark.django_db
def test_unreachable_broker_fails_the_run_with_a_message(
    upload, alice, monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(run_id: int) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(analyze_bundle, "delay", broker_down)

    with django_capture_on_commit_callbacks(execute=True):
        incident = services.incident_create(upload=upload, created_by=alice)

    run = incident.latest_run()
    assert run.state == RunState.FAILED
    assert "task queue could not be reached" in run.error
    assert run.finished_at is not None  # it ended: the API says when
    assert run.step == ""
    assert Incident.objects.get(pk=incident.pk).status == RunState.FAILED
