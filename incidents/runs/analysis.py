"""The body of the analysis task, safe to run twice for the same run.

1. Claim the run with a conditional UPDATE; only the caller that changed the row
   goes on. A redelivery of the same Celery message (its worker died) may take a
   run over again while that attempt is within its time limit, and so may anyone once a
   claim is older than the time limit.
2. Run the analyzers outside any transaction: it can take minutes.
   While it runs, a heartbeat (incidents.runs.heartbeat) tells the sweeper it is alive.
3. Store the report (or a human error message) in one UPDATE that only applies
   while this claim still holds, so a finished run is never overwritten. That write
   survives a database connection lost meanwhile (incidents.runs.dbretry); a report the
   database refuses fails the run with a reason instead of leaving it running.
4. An analysis past the task's time limit fails with that reason: at the soft limit from
   here, wherever it interrupts the task, at the hard limit (the pool child is killed) from
   the worker's main process (`fail_over_time_limit`, called by the task's failure hook).
   The pool starts the clock when its child takes the message, so on a loaded machine the
   claim may reach the database only after the limit was recorded: the run keeps the
   delivery that ran out of time, and that delivery's claim is refused.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, models, transaction
from django.db.models import F, Q
from django.utils import timezone

import analyzers
from analyzers import AnalyzeOptions, BundleError
from incidents.library import services as case_services
from incidents.models import AnalysisRun, RunState, fingerprint_of
from incidents.runs import dbretry, runstore, webhook, wording
from incidents.runs.heartbeat import Heartbeat

log = logging.getLogger(__name__)

PROGRESS_MIN_INTERVAL_S = 0.5


MAX_ATTEMPTS = 3


class ClaimLost(Exception):
    """The sweeper gave this run to another worker while this one was still at it."""


def analyze_run(*, run_id: int, delivery_id: str = "") -> None:
    """Analyze the bundle of run `run_id` and store the outcome on the run.

    The soft time limit is raised wherever the task is, also between the claim and the
    analysis or while the claim is on its way to the database: left running, that claim
    would be analysed again by the sweeper, only to meet the same limit.
    """
    try:
        _claim_and_analyze(run_id, delivery_id)
    except SoftTimeLimitExceeded:
        log.warning("run %s: over the time limit; stopped", run_id)
        dbretry.reconnect()  # a query the limit cut short leaves the connection mid-way
        fail_over_time_limit(run_id=run_id, delivery_id=delivery_id)


def _claim_and_analyze(run_id: int, delivery_id: str) -> None:
    if not _claim(run_id, delivery_id):
        log.info("run %s: not claimable (finished, running elsewhere or gone)", run_id)
        _fail_if_redelivered_past_time_limit(run_id, delivery_id)
        _give_up_if_exhausted(run_id, delivery_id)
        return
    run = AnalysisRun.objects.select_related("incident__bundle").get(pk=run_id)
    run.show_on_incident(RunState.RUNNING)
    try:
        with Heartbeat(_beat(run), interval_s=settings.RANKLENS_HEARTBEAT_SECONDS) as hb:
            report = _analyze(run, hb)
    except ClaimLost:
        log.warning("run %s: taken over by another worker; this attempt stops", run_id)
    except SoftTimeLimitExceeded:
        raise  # not an analysis error: analyze_run records it, wherever it comes
    except BundleError as error:
        # The store names the file by its hash; people know it by the name they uploaded.
        bundle = run.incident.bundle
        message = str(error).replace(bundle.sha256, bundle.original_name)
        _finish(run, state=RunState.FAILED, error=message)
    except Exception as error:
        stopped = f"{type(error).__name__}: {error}"
        _finish(run, state=RunState.FAILED, error=wording.english(wording.STOPPED, error=stopped))
        raise
    else:
        if _finish(run, state=RunState.DONE, report=report) == RunState.DONE:
            dbretry.retrying(  # link the matched cases; a second sync gives the same links
                lambda: case_services.incident_cases_sync(run_id=run.pk),
                what=f"run {run.pk}: linking matched cases",
            )


def _claim(run_id: int, delivery_id: str) -> bool:
    now = timezone.now()
    stale = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    takeover = Q(state=RunState.RUNNING) & Q(started_at__lt=stale)
    if delivery_id:
        within_limit = now - timedelta(seconds=settings.CELERY_TASK_SOFT_TIME_LIMIT)
        takeover |= Q(state=RunState.RUNNING, claimed_by=delivery_id, started_at__gt=within_limit)
    claimable = Q(pk=run_id, attempts__lt=MAX_ATTEMPTS) & (Q(state=RunState.QUEUED) | takeover)
    if delivery_id:  # its time ran out before this claim landed (fail_over_time_limit)
        claimable &= ~Q(timed_out_delivery=delivery_id)
    updated = AnalysisRun.objects.filter(claimable).update(
        state=RunState.RUNNING,
        claimed_by=delivery_id,
        started_at=now,
        heartbeat_at=now,
        progress=0,
        step=wording.STARTING,
        attempts=F("attempts") + 1,
    )
    return updated == 1


def _give_up_if_exhausted(run_id: int, delivery_id: str) -> None:
    """A run whose worker died on every attempt fails with a reason instead of looping.

    Only a dead attempt counts: the redelivery of its own message (the worker was lost)
    or a heartbeat gone stale. A duplicate message must not fail a live last attempt.
    """
    stale = timezone.now() - timedelta(seconds=settings.RANKLENS_HEARTBEAT_STALE_SECONDS)
    dead = Q(claimed_by=delivery_id) if delivery_id else Q(pk__in=[])
    dead |= Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, started_at__lt=stale)
    running = AnalysisRun.objects.filter(
        dead, pk=run_id, state=RunState.RUNNING, attempts__gte=MAX_ATTEMPTS
    )
    _fail_running(run_id, running, wording.english(wording.WORKER_DIED, times=MAX_ATTEMPTS))


def _fail_if_redelivered_past_time_limit(run_id: int, delivery_id: str) -> None:
    """Its own message, back after its attempt had passed the soft time limit: its worker
    was lost after that (the message is handed back, `reject_on_worker_lost`) before the
    limit could be recorded. Running it again would only meet the same limit. A stop the
    pool's clock made is recorded instead (`fail_over_time_limit`); this guess from the
    claim's time is for a worker lost on its own."""
    if not delivery_id:
        return
    used_up = timezone.now() - timedelta(seconds=settings.CELERY_TASK_SOFT_TIME_LIMIT)
    running = AnalysisRun.objects.filter(
        pk=run_id, state=RunState.RUNNING, claimed_by=delivery_id, started_at__lte=used_up
    )
    _fail_running(run_id, running, _over_time_limit())


def fail_over_time_limit(*, run_id: int, delivery_id: str) -> bool:
    """Record that the time limit of `delivery_id` ran out on run `run_id` and fail the run
    if that delivery holds it; True if it did. Called in the pool child at the soft limit
    and in the worker's main process at the hard limit, before the child is killed.

    Either can come before the delivery's claim is in the database: the pool's clock starts
    when the child takes the message. The record goes first, so a claim landing after it is
    refused (`_claim`), and one that landed before it is failed here. Left running, a run
    would be re-analyzed by the sweeper, only to meet the same limit.
    """
    running = AnalysisRun.objects.filter(pk=run_id, state=RunState.RUNNING, claimed_by=delivery_id)

    def record() -> bool:
        if delivery_id:
            AnalysisRun.objects.filter(pk=run_id).update(timed_out_delivery=delivery_id)
        return _fail_running(run_id, running, _over_time_limit())

    return dbretry.retrying(record, what=f"run {run_id}: failing it over the time limit")


def _over_time_limit() -> str:
    return wording.english(wording.OVER_TIME_LIMIT, seconds=settings.CELERY_TASK_TIME_LIMIT)


def _fail_running(run_id: int, running: models.QuerySet[AnalysisRun], error: str) -> bool:
    """Fail run `run_id` if `running` still selects it; True if it was failed."""
    updated = running.update(
        state=RunState.FAILED, finished_at=timezone.now(), step="", error=error
    )
    if updated:
        AnalysisRun.objects.get(pk=run_id).show_on_incident(RunState.FAILED)
        runstore.remove_store(run_id)
        webhook.queue_run_notice(run_id)
    return bool(updated)


def _analyze(run: AnalysisRun, heartbeat: Heartbeat) -> dict[str, Any]:
    bundle = run.incident.bundle
    options = AnalyzeOptions(
        checkpoint_patterns=(*settings.RANKLENS_CHECKPOINT_PATTERNS, *run.checkpoint_patterns),
        workers=settings.RANKLENS_ANALYZER_WORKERS,
        progress=_progress_reporter(run, heartbeat),
        store_dir=str(runstore.store_dir_for(run.pk)),  # the log viewer's line index
        name=bundle.original_name,  # stored under its hash; its name may be a wrong promise
    )
    result = analyzers.analyze(str(bundle.path), options=options)
    report = result.to_dict(timeline=False)  # the timeline's columns go to the run store
    # The store names files by hash; show people the name they uploaded.
    report["bundle"]["name"] = bundle.original_name
    store = runstore.store_dir_for(run.pk)
    runstore.save_timeline_for_report({**report, "timeline": result.timeline.columns()}, store)
    runstore.write_raw_timeline(result.timeline, store)
    return report


def _progress_reporter(
    run: AnalysisRun, heartbeat: Heartbeat | None = None
) -> Callable[[int, str], None]:
    """A progress callback that writes each new phase at once, and within one phase
    (e.g. "read <file>" per member) at most twice a second. Each write is a heartbeat.

    Dropping a phase change would leave the page showing a stale step for as long as
    the next phase runs, which on a big file is minutes. A write the database refuses
    is skipped: progress is cosmetic and must not kill an analysis.
    """
    last = {"at": 0.0, "phase": None}

    def report(percent: int, step: str) -> None:
        if heartbeat is not None and heartbeat.lost.is_set():
            raise ClaimLost(run.pk)
        now, phase = time.monotonic(), str(step).split(" ", 1)[0]
        if phase == last["phase"] and now - last["at"] < PROGRESS_MIN_INTERVAL_S:
            return
        last.update(at=now, phase=phase)
        percent = max(0, min(100, int(percent)))
        try:
            written = _claimed(run).update(
                progress=percent, step=storable(str(step))[:200], heartbeat_at=timezone.now()
            )
        except (DatabaseError, ValueError) as error:
            log.warning("run %s: progress not written: %s", run.pk, error)
            dbretry.reconnect()
            return
        if written == 0 and heartbeat is not None:
            heartbeat.lost.set()

    return report


def _beat(run: AnalysisRun) -> Callable[[], int]:
    """One heartbeat: 0 rows touched means this attempt no longer holds the run."""
    return lambda: _claimed(run).update(heartbeat_at=timezone.now())


def _claimed(run: AnalysisRun) -> models.QuerySet[AnalysisRun]:
    return AnalysisRun.objects.filter(
        pk=run.pk, state=RunState.RUNNING, claimed_by=run.claimed_by, started_at=run.started_at
    )


def _finish(
    run: AnalysisRun, *, state: str, report: dict | None = None, error: str = ""
) -> str | None:
    """Store the outcome if this attempt still holds the run; return the state written.

    A report the database refuses (a DataError, e.g. text PostgreSQL cannot store) fails
    the run with that reason: left as it was, the run would look busy at 98% forever.
    """
    try:
        written = _write_outcome(run, state=state, report=report, error=error)
    except (DatabaseError, ValueError, TypeError) as refused:
        if state != RunState.DONE or dbretry.is_transient(refused):
            raise
        log.exception("run %s: the database refused the report", run.pk)
        refusal = f"{type(refused).__name__}: {refused}"
        message = wording.english(wording.NOT_STORED, error=refusal)
        state = RunState.FAILED
        written = _write_outcome(run, state=state, report=None, error=message[:2000])
    if not written:
        return None
    if state == RunState.FAILED:
        runstore.remove_store(run.pk)
    return state


def storable(text: str) -> str:
    """Text any database stores: PostgreSQL refuses NUL, and UTF-8 has no lone surrogates
    (what a non-UTF-8 file name decodes to). Both are kept visible as escapes."""
    text = text.replace("\x00", "\\x00")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _write_outcome(run: AnalysisRun, *, state: str, report: dict | None, error: str) -> bool:
    fields = {"state": state, "report": report, "error": storable(error), "step": ""}
    if state == RunState.DONE:
        fields["progress"] = 100
        fields["fingerprint"] = fingerprint_of(report)

    def write() -> bool:
        with transaction.atomic():
            updated = _claimed(run).update(
                **fields, finished_at=timezone.now(), analyzer_version=analyzers.__version__
            )
            if updated:
                run.report = report
                run.show_on_incident(state)
                webhook.queue_run_notice(run.pk)
        return bool(updated)

    return dbretry.retrying(write, what=f"run {run.pk}: storing the outcome")
