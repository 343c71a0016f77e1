"""`manage.py sweep_runs`: one sweeper pass by hand."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from incidents.models import AnalysisRun, RunState
from incidents.runs import services
from incidents.runs.tasks import analyze_bundle

pytestmark = pytest.mark.django_db


def test_sweep_runs_requeues_a_run_whose_worker_went_silent(alice, monkeypatch):
    upload = SimpleUploadedFile("job.log", b"rank 0 ok\n")
    run = services.incident_create(upload=upload, created_by=alice).latest_run()
    silent_since = timezone.now() - timedelta(minutes=10)
    AnalysisRun.objects.filter(pk=run.pk).update(
        state=RunState.RUNNING, attempts=1, started_at=silent_since, heartbeat_at=silent_since
    )
    sent: list[int] = []
    monkeypatch.setattr(analyze_bundle, "delay", sent.append)
    out = StringIO()

    call_command("sweep_runs", stdout=out)

    run.refresh_from_db()
    assert "requeue: 1" in out.getvalue()
    assert (sent, run.state) == ([run.pk], RunState.QUEUED)
