"""The analysis task body: claim, analyze, store; safe to run twice."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

import analyzers
from incidents.models import AnalysisRun, RunState
from incidents.runs import analysis, services
from incidents.runs.analysis import analyze_run
from incidents.runs.tasks import analyze_bundle

pytestmark = pytest.mark.django_db


def make_incident(path: Path, alice, name: str | None = None):
    upload = SimpleUploadedFile(name or path.name, path.read_bytes())
    return services.incident_create(upload=upload, created_by=alice)


@pytest.fixture
def queued_run(crash_bundle, alice) -> AnalysisRun:
    return make_incident(crash_bundle, alice).latest_run()


def test_analysis_stores_the_report_and_finishes_the_run(queued_run):
    analyze_run(run_id=queued_run.pk)

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.DONE
    assert queued_run.progress == 100
    assert queued_run.analyzer_version == analyzers.__version__
    assert queued_run.started_at <= queued_run.finished_at
    assert queued_run.report["schema_version"] == 1
    assert queued_run.report["bundle"]["sha256"] == queued_run.incident.bundle.sha256
    assert queued_run.incident.status == RunState.DONE


def test_report_names_the_bundle_as_uploaded_not_by_hash(queued_run):
    analyze_run(run_id=queued_run.pk)

    queued_run.refresh_from_db()
    assert queued_run.report["bundle"]["name"] == "crash_one_rank.tar.gz"


def test_running_twice_gives_the_same_stored_result(queued_run):
    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")
    first = AnalysisRun.objects.get(pk=queued_run.pk)

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")
    second = AnalysisRun.objects.get(pk=queued_run.pk)

    assert second.state == RunState.DONE
    assert second.report == first.report
    assert (second.started_at, second.finished_at) == (first.started_at, first.finished_at)


def test_celery_task_runs_the_same_code_path(queued_run):
    analyze_bundle.apply(args=[queued_run.pk])

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.DONE
    assert queued_run.report["bundle"]["files"]


def test_task_is_acked_late_and_rejected_when_the_worker_is_lost():
    assert analyze_bundle.acks_late is True
    assert analyze_bundle.reject_on_worker_lost is True


def test_redelivered_message_takes_over_its_own_running_run(queued_run):
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING, claimed_by="delivery-7", started_at=timezone.now()
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-7")

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.DONE


def test_own_message_back_after_the_whole_time_limit_fails_instead_of_running_again(
    queued_run, settings
):
    # The hard limit killed the attempt; the message came back before its failure was written.
    used_up = timezone.now() - timedelta(seconds=settings.CELERY_TASK_SOFT_TIME_LIMIT + 1)
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING, claimed_by="delivery-7", started_at=used_up, attempts=1
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-7")

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.attempts) == (RunState.FAILED, 1)
    assert "longer than its time limit" in queued_run.error
    assert queued_run.report is None


def test_a_run_whose_worker_keeps_dying_is_given_up_with_a_reason(queued_run):
    # Two earlier deliveries claimed the run and their worker was killed each time.
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING,
        claimed_by="delivery-7",
        started_at=timezone.now(),
        attempts=analysis.MAX_ATTEMPTS,
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-7")

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.FAILED
    assert "interrupted 3 times" in queued_run.error
    assert queued_run.incident.status == RunState.FAILED


def test_each_claim_counts_an_attempt(queued_run):
    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")

    queued_run.refresh_from_db()
    assert queued_run.attempts == 1


def test_other_delivery_leaves_a_fresh_running_run_alone(queued_run):
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING, claimed_by="delivery-7", started_at=timezone.now()
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-8")

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.report) == (RunState.RUNNING, None)


def test_run_stuck_past_the_time_limit_can_be_claimed_again(queued_run, settings):
    long_ago = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 120)
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING, claimed_by="dead-worker", started_at=long_ago
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-9")

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.DONE


def test_unreadable_bundle_fails_with_a_human_message(alice, crash_bundle, tmp_path):
    truncated = tmp_path / "job.tar.gz"
    truncated.write_bytes(crash_bundle.read_bytes()[:600])
    run = make_incident(truncated, alice).latest_run()

    analyze_run(run_id=run.pk)

    run.refresh_from_db()
    assert run.state == RunState.FAILED
    assert run.report is None
    assert run.error
    assert run.error.startswith("job.tar.gz: ")  # a BundleError, about the file as uploaded
    assert run.incident.status == RunState.FAILED


def test_progress_is_recorded_while_running(queued_run, monkeypatch):
    seen: list[tuple[int, str]] = []
    real_analyze = analyzers.analyze

    def watching_analyze(path, options):
        report = real_analyze(path, options)
        run = AnalysisRun.objects.get(pk=queued_run.pk)
        seen.append((run.progress, run.step))
        return report

    monkeypatch.setattr(analyzers, "analyze", watching_analyze)
    analyze_run(run_id=queued_run.pk)

    assert seen
    assert seen[0][0] > 0
    assert seen[0][1]


def test_missing_run_is_ignored():
    analyze_run(run_id=987654)

    assert not AnalysisRun.objects.filter(pk=987654).exists()


def test_reanalysis_adds_a_run_and_the_incident_follows_the_latest(queued_run):
    analyze_run(run_id=queued_run.pk)
    incident = queued_run.incident

    newer = services.run_queue(incident=incident)

    incident.refresh_from_db()
    assert incident.runs.count() == 2
    assert incident.latest_run() == newer
    assert incident.status == RunState.QUEUED
    analyze_run(run_id=newer.pk)
    incident.refresh_from_db()
    assert incident.status == RunState.DONE


def test_progress_writes_each_new_phase_at_once_and_throttles_within_one(queued_run):
    analysis._claim(queued_run.pk, "delivery-1")
    run = AnalysisRun.objects.get(pk=queued_run.pk)
    report = analysis._progress_reporter(run)

    report(2, "hashing the bundle")
    report(5, "reading log files")
    after_phase_change = AnalysisRun.objects.get(pk=run.pk)
    report(6, "reading more")
    report(7, "reading even more")
    within_phase = AnalysisRun.objects.get(pk=run.pk)

    assert (after_phase_change.progress, after_phase_change.step) == (5, "reading log files")
    assert (within_phase.progress, within_phase.step) == (5, "reading log files")
