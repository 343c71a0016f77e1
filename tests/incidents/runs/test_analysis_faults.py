"""The analysis task when the database or the claim fails under it: it still ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DataError, OperationalError, connection
from django.utils import timezone

import analyzers
from incidents.models import AnalysisRun, RunState
from incidents.runs import analysis, dbretry, runstore
from incidents.runs.analysis import analyze_run
from tests.db_faults import needs_postgresql, terminate_connections
from tests.incidents.runs.test_analysis import make_incident

REPORT = {"schema_version": 1, "diagnosis": {"fingerprint": "abc"}}


@pytest.fixture
def queued_run(crash_bundle, alice) -> AnalysisRun:
    return make_incident(crash_bundle, alice).latest_run()


@pytest.fixture
def claimed_run(queued_run) -> AnalysisRun:
    assert analysis._claim(queued_run.pk, "delivery-1")
    return AnalysisRun.objects.select_related("incident").get(pk=queued_run.pk)


@pytest.fixture
def no_backoff(monkeypatch):
    monkeypatch.setattr(dbretry, "RETRY_DELAYS_S", (0.01, 0.01, 0.01))


@pytest.mark.django_db(transaction=True)
def test_the_final_write_reconnects_after_the_database_dropped_the_connection(
    claimed_run, no_backoff, caplog
):
    needs_postgresql()
    assert terminate_connections() >= 1  # this test's own connection among them

    analysis._finish(claimed_run, state=RunState.DONE, report=REPORT)

    assert "database connection lost" in caplog.text
    claimed_run.refresh_from_db()
    assert (claimed_run.state, claimed_run.progress) == (RunState.DONE, 100)
    assert claimed_run.incident.status == RunState.DONE


@pytest.mark.django_db(transaction=True)
def test_the_final_write_gives_up_after_its_retries_and_says_so(
    claimed_run, no_backoff, monkeypatch
):
    calls = []

    def always_down(run):
        calls.append(run.pk)
        raise OperationalError("connection refused")

    monkeypatch.setattr(analysis, "_claimed", always_down)

    with pytest.raises(OperationalError):
        analysis._finish(claimed_run, state=RunState.DONE, report=REPORT)

    assert len(calls) == 4  # the first try and three retries


@pytest.mark.django_db(transaction=True)
def test_a_report_postgresql_refuses_fails_the_run_instead_of_hanging(claimed_run):
    needs_postgresql()
    report = REPORT | {"ranks": [{"file": "rank-\udce9.log"}]}  # a lone surrogate

    analysis._finish(claimed_run, state=RunState.DONE, report=report)

    claimed_run.refresh_from_db()
    assert claimed_run.state == RunState.FAILED
    assert claimed_run.error.startswith("The report could not be stored (DataError")
    assert claimed_run.incident.status == RunState.FAILED


@pytest.mark.django_db
def test_a_data_error_on_any_database_fails_the_run_with_the_reason(claimed_run, monkeypatch):
    real_write = analysis._write_outcome

    def refuse_reports(run, *, state, report, error):
        if report is not None:
            raise DataError("unsupported Unicode escape sequence")
        return real_write(run, state=state, report=report, error=error)

    monkeypatch.setattr(analysis, "_write_outcome", refuse_reports)

    assert analysis._finish(claimed_run, state=RunState.DONE, report=REPORT) == RunState.FAILED

    claimed_run.refresh_from_db()
    assert claimed_run.state == RunState.FAILED
    assert "unsupported Unicode escape sequence" in claimed_run.error


@pytest.mark.django_db
def test_a_progress_write_the_database_refuses_does_not_stop_the_analysis(claimed_run, monkeypatch):
    report = analysis._progress_reporter(claimed_run)

    def down(run):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(analysis, "_claimed", down)
    report(10, "reading log files")  # must not raise

    monkeypatch.undo()
    report(20, "classifying the failure")
    claimed_run.refresh_from_db()
    assert (claimed_run.progress, claimed_run.step) == (20, "classifying the failure")


@pytest.mark.django_db
def test_a_failed_run_leaves_no_partial_files(alice, crash_bundle, tmp_path):
    truncated = tmp_path / "job.tar.gz"
    truncated.write_bytes(crash_bundle.read_bytes()[:600])
    run = make_incident(truncated, alice).latest_run()
    store = runstore.store_dir_for(run.pk)
    store.mkdir(parents=True)
    (store / "member.lines").write_bytes(b"partial")

    analyze_run(run_id=run.pk)

    run.refresh_from_db()
    assert run.state == RunState.FAILED
    assert not store.exists()


@pytest.mark.django_db
def test_an_attempt_whose_run_was_taken_over_stops_and_writes_nothing(queued_run, monkeypatch):
    real_analyze = analyzers.analyze

    def taken_over_midway(path, options):
        # What the sweeper does to a run it believes lost: queued again, claim cleared.
        AnalysisRun.objects.filter(pk=queued_run.pk).update(state=RunState.QUEUED, claimed_by="")
        options.progress(50, "reading log files")  # finds the claim gone
        options.progress(60, "correlating rank timelines")
        return real_analyze(path, options)

    monkeypatch.setattr(analyzers, "analyze", taken_over_midway)

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.report, queued_run.error) == ("queued", None, "")


@pytest.mark.django_db
def test_a_duplicate_message_does_not_fail_a_live_last_attempt(queued_run):
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING,
        claimed_by="delivery-7",
        started_at=timezone.now(),
        heartbeat_at=timezone.now(),
        attempts=analysis.MAX_ATTEMPTS,
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-8")

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.error) == (RunState.RUNNING, "")


@pytest.mark.django_db
def test_a_last_attempt_gone_silent_is_given_up_by_the_next_message(queued_run, settings):
    silent_since = timezone.now() - timedelta(seconds=settings.RANKLENS_HEARTBEAT_STALE_SECONDS + 5)
    AnalysisRun.objects.filter(pk=queued_run.pk).update(
        state=RunState.RUNNING,
        claimed_by="delivery-7",
        started_at=silent_since,
        heartbeat_at=silent_since,
        attempts=analysis.MAX_ATTEMPTS,
    )

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-8")

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.FAILED
    assert "interrupted 3 times" in queued_run.error


@pytest.mark.django_db
def test_inside_a_transaction_a_lost_connection_is_not_retried(no_backoff):
    calls = []

    def write():
        calls.append(1)
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(OperationalError):
        dbretry.retrying(write, what="a write in a transaction")

    assert calls == [1]  # a new connection would silently lose the transaction's work
    assert connection.in_atomic_block


@pytest.mark.django_db
def test_an_error_naming_a_file_with_a_bad_name_is_stored_with_visible_escapes(
    queued_run, monkeypatch
):
    def refuse(path, options):
        options.progress(10, "read rank-\udce9\x00.log")
        raise analyzers.BundleError("rank-\udce9\x00.log: not a gzip file")

    monkeypatch.setattr(analyzers, "analyze", refuse)

    analyze_run(run_id=queued_run.pk)

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.FAILED
    assert queued_run.error == "rank-\\udce9\\x00.log: not a gzip file"


@pytest.mark.django_db
def test_an_analysis_past_the_soft_time_limit_fails_with_that_reason(
    queued_run, monkeypatch, settings
):
    from celery.exceptions import SoftTimeLimitExceeded

    def over_time(run, heartbeat):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(analysis, "_analyze", over_time)

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")  # handled, not raised

    queued_run.refresh_from_db()
    assert queued_run.state == RunState.FAILED
    assert f"longer than its time limit ({settings.CELERY_TASK_TIME_LIMIT} s)" in queued_run.error
    assert queued_run.incident.status == RunState.FAILED


@pytest.mark.django_db
def test_a_pool_child_killed_at_the_hard_time_limit_fails_its_run(claimed_run, settings):
    from billiard.exceptions import TimeLimitExceeded

    from incidents.runs.tasks import analyze_bundle

    store = runstore.store_dir_for(claimed_run.pk)
    store.mkdir(parents=True)

    # What the worker's main process calls once it killed the child.
    analyze_bundle.on_failure(TimeLimitExceeded(90), "delivery-1", (claimed_run.pk,), {}, None)

    claimed_run.refresh_from_db()
    assert claimed_run.state == RunState.FAILED
    assert f"longer than its time limit ({settings.CELERY_TASK_TIME_LIMIT} s)" in claimed_run.error
    assert claimed_run.finished_at is not None
    assert claimed_run.step == ""
    assert claimed_run.incident.status == RunState.FAILED
    assert not store.exists()


@pytest.mark.django_db
def test_the_hard_time_limit_of_an_older_delivery_leaves_the_run_alone(claimed_run):
    from billiard.exceptions import TimeLimitExceeded

    from incidents.runs.tasks import analyze_bundle

    # Another delivery holds the run now (the sweeper gave it away); other failures too.
    analyze_bundle.on_failure(TimeLimitExceeded(90), "delivery-0", (claimed_run.pk,), {}, None)
    analyze_bundle.on_failure(ValueError("x"), "delivery-1", (claimed_run.pk,), {}, None)

    claimed_run.refresh_from_db()
    assert claimed_run.state == RunState.RUNNING


def test_analysis_messages_carry_no_time_limit_so_the_worker_s_own_applies(monkeypatch):
    from incidents.runs.tasks import analyze_bundle

    sent = []
    app = analyze_bundle.app
    monkeypatch.setattr(
        app, "send_task", lambda name, args, kwargs, **options: sent.append(options)
    )

    analyze_bundle.delay(7)

    assert sent[0]["time_limit"] is None
    assert sent[0]["soft_time_limit"] is None


def _refusal(django_error, psycopg_error):
    """A Django error as the database wrapper raises it: the driver's error as its cause."""
    error = django_error(str(psycopg_error))
    error.__cause__ = psycopg_error
    return error


def test_a_database_refusing_writes_for_a_while_is_waited_out(no_backoff, monkeypatch):
    from django.db import InternalError
    from psycopg.errors import ReadOnlySqlTransaction

    reconnects = []
    monkeypatch.setattr(dbretry, "reconnect", lambda: reconnects.append(1))
    refused = _refusal(InternalError, ReadOnlySqlTransaction("read-only transaction"))
    answers = [refused, refused, "stored"]

    def write():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert dbretry.retrying(write, what="test") == "stored"
    assert len(reconnects) == 2  # a standby's sessions stay read-only: each try opens anew


def test_a_refusal_of_the_data_itself_is_not_retried(no_backoff):
    from psycopg.errors import CharacterNotInRepertoire

    calls = []

    def write():
        calls.append(1)
        raise _refusal(DataError, CharacterNotInRepertoire("invalid byte sequence"))

    with pytest.raises(DataError):
        dbretry.retrying(write, what="test")
    assert calls == [1]
