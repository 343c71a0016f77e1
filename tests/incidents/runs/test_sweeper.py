"""The sweeper: which quiet runs it sends again, re-queues or gives up, and that it acts once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from incidents.models import AnalysisRun, RunState
from incidents.runs import runstore, services, sweeper, wording
from incidents.runs.analysis import MAX_ATTEMPTS
from incidents.runs.sweeper import Action, Limits, decide

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LIMITS = Limits(stale=timedelta(seconds=120), queued_grace=timedelta(seconds=60))


def run(state: str, *, quiet_s: float, attempts: int = 1, requeues: int = 0, pk: int = 7):
    """An unsaved run whose last sign of life was `quiet_s` seconds before NOW."""
    return AnalysisRun(
        pk=pk,
        state=state,
        attempts=attempts,
        requeues=requeues,
        created_at=NOW - timedelta(hours=1),
        started_at=NOW - timedelta(hours=1),
        heartbeat_at=NOW - timedelta(seconds=quiet_s),
    )


@pytest.mark.parametrize(
    ("state", "quiet_s", "attempts", "requeues", "in_flight", "expected"),
    [
        pytest.param(RunState.RUNNING, 30, 1, 0, None, Action.LEAVE, id="running-fresh"),
        pytest.param(RunState.RUNNING, 119, 1, 0, None, Action.LEAVE, id="running-just-fresh"),
        pytest.param(RunState.RUNNING, 121, 1, 0, None, Action.REQUEUE, id="running-stale"),
        pytest.param(RunState.RUNNING, 121, 2, 0, None, Action.REQUEUE, id="stale-2nd-attempt"),
        pytest.param(RunState.RUNNING, 900, 3, 0, None, Action.FAIL, id="stale-out-of-attempts"),
        pytest.param(RunState.RUNNING, 30, 3, 0, None, Action.LEAVE, id="last-attempt-alive"),
        pytest.param(RunState.QUEUED, 30, 0, 0, None, Action.LEAVE, id="queued-in-grace"),
        pytest.param(RunState.QUEUED, 61, 0, 0, None, Action.RESEND, id="queued-unknown-broker"),
        pytest.param(RunState.QUEUED, 61, 0, 0, set(), Action.RESEND, id="queued-message-lost"),
        pytest.param(RunState.QUEUED, 61, 0, 0, {7}, Action.LEAVE, id="queued-waiting-turn"),
        pytest.param(RunState.QUEUED, 61, 0, 5, set(), Action.FAIL, id="queue-lost-it-5-times"),
        pytest.param(RunState.DONE, 9999, 1, 0, None, Action.LEAVE, id="done"),
        pytest.param(RunState.FAILED, 9999, 3, 0, None, Action.LEAVE, id="failed"),
    ],
)
def test_decisions(state, quiet_s, attempts, requeues, in_flight, expected):
    subject = run(state, quiet_s=quiet_s, attempts=attempts, requeues=requeues)

    decision = decide(subject, now=NOW, limits=LIMITS, in_flight=in_flight)

    assert decision.action is expected


def test_a_run_out_of_attempts_fails_with_a_reason_people_can_read():
    subject = run(RunState.RUNNING, quiet_s=600, attempts=MAX_ATTEMPTS)

    decision = decide(subject, now=NOW, limits=LIMITS, in_flight=None)

    assert decision.reason.startswith("The analysis was interrupted 3 times")
    assert "no heartbeat for 600 s" in decision.reason


def test_a_running_run_without_any_heartbeat_is_judged_by_its_start():
    subject = run(RunState.RUNNING, quiet_s=0)
    subject.heartbeat_at = None

    decision = decide(subject, now=NOW, limits=LIMITS, in_flight=None)

    assert decision.action is Action.REQUEUE  # started an hour ago, never beat


# --- applying the decisions to stored runs ----------------------------------------------


@pytest.fixture
def stored_run(alice) -> AnalysisRun:
    upload = SimpleUploadedFile("job.log", b"rank 0 ok\n")
    return services.incident_create(upload=upload, created_by=alice).latest_run()


def quiet(run: AnalysisRun, state: str, *, seconds: int, **fields) -> None:
    since = timezone.now() - timedelta(seconds=seconds)
    fields = {"claimed_by": "dead-delivery", "started_at": since} | fields
    AnalysisRun.objects.filter(pk=run.pk).update(state=state, heartbeat_at=since, **fields)


def sweep(sent: list[int], in_flight=None) -> dict:
    return sweeper.sweep(send=sent.append, in_flight=lambda: in_flight, limits=LIMITS)


@pytest.mark.django_db
def test_a_stale_running_run_is_queued_again_and_its_message_sent(stored_run):
    quiet(stored_run, RunState.RUNNING, seconds=300, attempts=1, progress=40)
    sent: list[int] = []

    counts = sweep(sent)

    stored_run.refresh_from_db()
    assert counts[Action.REQUEUE] == 1
    assert sent == [stored_run.pk]
    assert (stored_run.state, stored_run.claimed_by, stored_run.progress) == ("queued", "", 0)
    assert stored_run.incident.status == RunState.QUEUED


@pytest.mark.django_db
def test_a_second_sweep_does_not_send_the_same_run_again(stored_run):
    quiet(stored_run, RunState.RUNNING, seconds=300, attempts=1)
    sent: list[int] = []

    sweep(sent)
    sweep(sent)

    assert sent == [stored_run.pk]


@pytest.mark.django_db
def test_a_queued_run_whose_message_is_lost_is_sent_again_and_counted(stored_run):
    quiet(stored_run, RunState.QUEUED, seconds=300, claimed_by="")
    sent: list[int] = []

    sweep(sent, in_flight=set())

    stored_run.refresh_from_db()
    assert sent == [stored_run.pk]
    assert (stored_run.state, stored_run.requeues) == (RunState.QUEUED, 1)


@pytest.mark.django_db
def test_a_queued_run_whose_message_is_lost_says_so_while_it_waits(stored_run):
    quiet(stored_run, RunState.QUEUED, seconds=300, claimed_by="")

    sweep([], in_flight=set())

    stored_run.refresh_from_db()
    assert stored_run.step == wording.QUEUE_LOST_STEP


@pytest.mark.django_db
def test_a_delivery_out_of_time_before_its_claim_is_not_called_a_lost_message(stored_run):
    # The pool's soft limit struck before the claim reached the database: the message was
    # used up, the run never started, and its late claim will be refused.
    quiet(stored_run, RunState.QUEUED, seconds=300, claimed_by="", timed_out_delivery="d-1")
    sent: list[int] = []

    sweep(sent, in_flight=set())

    stored_run.refresh_from_db()
    assert sent == [stored_run.pk]
    assert stored_run.step == wording.TIMED_OUT_UNCLAIMED_STEP
    assert (stored_run.state, stored_run.requeues) == (RunState.QUEUED, 1)


def test_an_earlier_timed_out_delivery_does_not_explain_a_later_lost_message():
    subject = run(RunState.QUEUED, quiet_s=61, attempts=1)  # claimed once since then
    subject.timed_out_delivery = "d-1"

    decision = decide(subject, now=NOW, limits=LIMITS, in_flight=set())

    assert (decision.action, decision.step) == (Action.RESEND, "")


@pytest.mark.django_db
def test_a_queued_run_with_its_message_in_the_broker_is_left_alone(stored_run):
    quiet(stored_run, RunState.QUEUED, seconds=300, claimed_by="")
    sent: list[int] = []

    sweep(sent, in_flight={stored_run.pk})

    stored_run.refresh_from_db()
    assert (sent, stored_run.requeues) == ([], 0)


@pytest.mark.django_db
def test_a_run_out_of_attempts_is_failed_and_its_partial_files_removed(stored_run):
    quiet(stored_run, RunState.RUNNING, seconds=300, attempts=MAX_ATTEMPTS)
    store = runstore.store_dir_for(stored_run.pk)
    store.mkdir(parents=True)
    (store / "half-written.lines").write_bytes(b"x" * 100)
    sent: list[int] = []

    sweep(sent)

    stored_run.refresh_from_db()
    assert sent == []
    assert stored_run.state == RunState.FAILED
    assert "interrupted 3 times" in stored_run.error
    assert stored_run.finished_at is not None
    assert stored_run.incident.status == RunState.FAILED
    assert not store.exists()


@pytest.mark.django_db
def test_a_send_that_fails_leaves_the_run_queued_for_the_next_sweep(stored_run):
    quiet(stored_run, RunState.RUNNING, seconds=300, attempts=1)

    def broker_down(run_id: int) -> None:
        raise ConnectionError("Redis is restarting")

    sweeper.sweep(send=broker_down, in_flight=lambda: None, limits=LIMITS)

    stored_run.refresh_from_db()
    assert stored_run.state == RunState.QUEUED
    assert stored_run.heartbeat_at > timezone.now() - timedelta(seconds=10)


@pytest.mark.django_db
def test_a_fresh_run_is_not_touched(stored_run):
    quiet(stored_run, RunState.RUNNING, seconds=5, attempts=1)
    sent: list[int] = []

    counts = sweep(sent)

    stored_run.refresh_from_db()
    assert (sent, stored_run.state) == ([], RunState.RUNNING)
    assert not any(counts.values())


def test_every_worker_runs_the_sweeper():
    from config.celery import app
    from incidents.runs.sweeper_step import SweeperStep

    assert SweeperStep in app.steps["worker"]


def test_a_failing_sweep_pass_is_logged_and_survived(monkeypatch, caplog):
    from config.celery import app
    from incidents.runs import sweeper_step

    def database_away(**kwargs):
        raise ConnectionError("database is starting up")

    monkeypatch.setattr(sweeper, "sweep", database_away)

    sweeper_step.sweep_once(app)

    assert "this pass failed" in caplog.text


@pytest.mark.django_db
def test_two_messages_for_a_requeued_run_start_one_analysis(stored_run):
    from incidents.runs import analysis

    quiet(stored_run, RunState.RUNNING, seconds=300, attempts=1)
    sweep([])  # re-queued; its old message may still be redelivered later

    claims = [analysis._claim(stored_run.pk, delivery) for delivery in ("new", "old", "again")]

    stored_run.refresh_from_db()
    assert claims == [True, False, False]
    assert (stored_run.claimed_by, stored_run.attempts) == ("new", 2)
