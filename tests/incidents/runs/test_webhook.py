"""A finished run is announced to RANKLENS_WEBHOOK_URL, without ever holding up the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from incidents.models import AnalysisRun, RunState
from incidents.runs import analysis, services
from incidents.runs.analysis import analyze_run
from incidents.runs.tasks import notify_run_finished
from incidents.runs.webhook import notice_text, run_notice
from tests.http_stub import Canned, stub_server

pytestmark = pytest.mark.django_db

BASE = "https://ranklens.example.com"


def queued_run(path: Path, alice, title: str = "") -> AnalysisRun:
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    return services.incident_create(upload=upload, title=title, created_by=alice).latest_run()


@pytest.fixture
def receiver(settings, eager_celery):
    """A webhook receiver; a test sets `answers` before the run ends (default: 200)."""
    with stub_server([Canned(200, b"ok")]) as server:
        settings.RANKLENS_WEBHOOK_URL = server.url + "/hook"
        settings.RANKLENS_BASE_URL = BASE
        yield server


def finish(run: AnalysisRun, django_capture_on_commit_callbacks) -> AnalysisRun:
    """Analyze the run and let its commit hooks (the notice) run, as a real commit would."""
    with django_capture_on_commit_callbacks(execute=True):
        analyze_run(run_id=run.pk)
    run.refresh_from_db()
    return run


def posted(server) -> list[dict]:
    return [json.loads(request.body) for request in server.seen]


def test_a_done_run_posts_a_slack_text_and_structured_fields(
    receiver, alice, crash_bundle, django_capture_on_commit_callbacks
):
    run = finish(queued_run(crash_bundle, alice, "nightly"), django_capture_on_commit_callbacks)

    [notice] = posted(receiver)
    diagnosis = run.report["diagnosis"]
    url = f"{BASE}/incidents/INC-{run.incident_id}/"
    assert receiver.seen[0].path == "/hook"
    assert receiver.seen[0].headers["Content-Type"].startswith("application/json")
    assert notice["text"] == (
        f"INC-{run.incident_id} nightly: done — shape_mismatch "
        f"({diagnosis['confidence']:.2f}), culprit ranks 3; {url}"
    )
    assert notice == {
        "text": notice["text"],
        "incident": f"INC-{run.incident_id}",
        "url": url,
        "title": "nightly",
        "status": "done",
        "category": "shape_mismatch",
        "confidence": diagnosis["confidence"],
        "culprit_ranks": [3],
        "first_error": diagnosis["first_error"],
        "error": None,
    }
    assert "mat1 and mat2 shapes" in notice["first_error"]["text"]


def test_a_failed_run_posts_its_reason(
    receiver, alice, crash_bundle, tmp_path, django_capture_on_commit_callbacks
):
    truncated = tmp_path / "job.tar.gz"
    truncated.write_bytes(crash_bundle.read_bytes()[:600])

    run = finish(queued_run(truncated, alice), django_capture_on_commit_callbacks)

    [notice] = posted(receiver)
    assert run.state == RunState.FAILED
    assert (notice["status"], notice["category"], notice["culprit_ranks"]) == ("failed", None, [])
    assert notice["error"] == run.error
    assert notice["text"].startswith(f"INC-{run.incident_id} job: failed — job.tar.gz: ")


def test_a_failing_receiver_is_retried_and_the_run_is_still_done(
    receiver, alice, crash_bundle, django_capture_on_commit_callbacks
):
    receiver.answers[:] = [Canned(503), Canned(500), Canned(204)]

    run = finish(queued_run(crash_bundle, alice), django_capture_on_commit_callbacks)

    assert run.state == RunState.DONE
    assert len(receiver.seen) == 3
    assert posted(receiver)[0] == posted(receiver)[2]


def test_retries_are_bounded(receiver, alice, crash_bundle, django_capture_on_commit_callbacks):
    receiver.answers[:] = [Canned(502)]

    run = finish(queued_run(crash_bundle, alice), django_capture_on_commit_callbacks)

    assert run.state == RunState.DONE
    assert len(receiver.seen) == notify_run_finished.max_retries + 1


def test_an_unreachable_receiver_leaves_the_run_done(
    settings, eager_celery, alice, crash_bundle, django_capture_on_commit_callbacks
):
    with stub_server([Canned(200)]) as gone:
        settings.RANKLENS_WEBHOOK_URL = gone.url  # closed again before the run ends

    run = finish(queued_run(crash_bundle, alice), django_capture_on_commit_callbacks)

    assert run.state == RunState.DONE


def test_a_refusing_receiver_is_not_retried(
    receiver, alice, crash_bundle, django_capture_on_commit_callbacks
):
    receiver.answers[:] = [Canned(404)]

    run = finish(queued_run(crash_bundle, alice), django_capture_on_commit_callbacks)

    assert run.state == RunState.DONE
    assert len(receiver.seen) == 1


def test_nothing_is_posted_without_a_webhook_url(
    settings, receiver, alice, crash_bundle, django_capture_on_commit_callbacks
):
    settings.RANKLENS_WEBHOOK_URL = ""

    finish(queued_run(crash_bundle, alice), django_capture_on_commit_callbacks)

    assert receiver.seen == []


def test_a_run_given_up_after_dying_workers_is_announced(
    receiver, alice, crash_bundle, django_capture_on_commit_callbacks
):
    run = queued_run(crash_bundle, alice)
    AnalysisRun.objects.filter(pk=run.pk).update(
        state=RunState.RUNNING,
        claimed_by="delivery-7",
        started_at=timezone.now(),
        attempts=analysis.MAX_ATTEMPTS,
    )

    with django_capture_on_commit_callbacks(execute=True):
        analyze_run(run_id=run.pk, delivery_id="delivery-7")

    [notice] = posted(receiver)
    assert notice["status"] == "failed"
    assert "interrupted 3 times" in notice["error"]


def test_a_run_queued_again_before_its_notice_went_out_is_not_announced(
    receiver, alice, crash_bundle
):
    run = queued_run(crash_bundle, alice)  # still queued: its end is yet to come

    notify_run_finished.delay(run.pk)

    assert receiver.seen == []


def test_without_a_base_url_the_notice_carries_the_path(settings, alice, crash_bundle):
    settings.RANKLENS_BASE_URL = ""
    run = queued_run(crash_bundle, alice)
    run.state, run.error = RunState.FAILED, "The bundle holds no log files."

    notice = run_notice(run)

    assert notice["url"] == f"/incidents/INC-{run.incident_id}/"


def test_a_title_cannot_ping_a_slack_channel():
    fields = {
        "incident": "INC-7",
        "title": "<!channel> R&D job",
        "status": "done",
        "category": "hccl",
        "confidence": 0.86,
        "culprit_ranks": [2, 5],
        "url": f"{BASE}/incidents/INC-7/",
    }

    assert notice_text(fields) == (
        "INC-7 &lt;!channel&gt; R&amp;D job: done — hccl (0.86), culprit ranks 2, 5; "
        f"{BASE}/incidents/INC-7/"
    )


def test_a_run_that_could_not_be_queued_is_announced_directly(
    receiver, alice, crash_bundle, monkeypatch, django_capture_on_commit_callbacks
):
    """With the broker down neither the analysis nor the notice task can be sent; people
    still hear that the upload failed, from a one-off post made by the web process."""
    from kombu.exceptions import OperationalError

    from incidents.runs import webhook
    from incidents.runs.tasks import analyze_bundle

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(analyze_bundle, "delay", broker_down)
    monkeypatch.setattr(notify_run_finished, "delay", broker_down)
    threads = []
    send = webhook._send_task
    monkeypatch.setattr(webhook, "_send_task", lambda run_id: threads.append(send(run_id)))

    with django_capture_on_commit_callbacks(execute=True):
        run = queued_run(crash_bundle, alice, "nightly")
    for thread in threads:
        thread.join(timeout=10)

    [notice] = posted(receiver)
    assert notice["status"] == "failed"
    assert notice["incident"] == f"INC-{run.incident_id}"
    assert "task queue could not be reached" in notice["error"]
