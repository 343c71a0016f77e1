"""The body of the analysis task, safe to run twice for the same run.

1. Claim the run with a conditional UPDATE; only the caller that changed the row
   goes on. A redelivery of the same Celery message (its worker died) may take a
   run over again, and so may anyone once a claim is older than the time limit.
2. Run the analyzers outside any transaction: it can take minutes.
3. Store the report (or a human error message) in one UPDATE that only applies
   while this claim still holds, so a finished run is never overwritten.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

import analyzers
from analyzers import AnalyzeOptions, BundleError
from incidents import case_services, runstore  # case_services: issue 5
from incidents.models import AnalysisRun, RunState, fingerprint_of

log = logging.getLogger(__name__)

PROGRESS_MIN_INTERVAL_S = 0.5


MAX_ATTEMPTS = 3


def analyze_run(*, run_id: int, delivery_id: str = "") -> None:
    """Analyze the bundle of run `run_id` and store the outcome on the run."""
    if not _claim(run_id, delivery_id):
        log.info("run %s: not claimable (finished, running elsewhere or gone)", run_id)
        _give_up_if_exhausted(run_id)
        return
    run = AnalysisRun.objects.select_related("incident__bundle").get(pk=run_id)
    run.show_on_incident(RunState.RUNNING)
    try:
        report = _analyze(run)
    except BundleError as error:
        # The store names the file by its hash; people know it by the name they uploaded.
        bundle = run.incident.bundle
        message = str(error).replace(bundle.sha256, bundle.original_name)
        _finish(run, state=RunState.FAILED, error=message)
    except Exception as error:
        message = f"The analysis stopped unexpectedly ({type(error).__name__}: {error})."
        _finish(run, state=RunState.FAILED, error=message)
        raise
    else:
        _finish(run, state=RunState.DONE, report=report)
        case_services.incident_cases_sync(run_id=run.pk)  # issue 5: link the matched cases


def _claim(run_id: int, delivery_id: str) -> bool:
    now = timezone.now()
    stale = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    takeover = Q(state=RunState.RUNNING) & Q(started_at__lt=stale)
    if delivery_id:
        takeover |= Q(state=RunState.RUNNING, claimed_by=delivery_id)
    claimable = Q(pk=run_id, attempts__lt=MAX_ATTEMPTS) & (Q(state=RunState.QUEUED) | takeover)
    updated = AnalysisRun.objects.filter(claimable).update(
        state=RunState.RUNNING,
        claimed_by=delivery_id,
        started_at=now,
        progress=0,
        step="starting",
        attempts=F("attempts") + 1,
    )
    return updated == 1


def _give_up_if_exhausted(run_id: int) -> None:
    """A run whose worker died on every attempt fails with a reason instead of looping."""
    updated = AnalysisRun.objects.filter(
        pk=run_id, state=RunState.RUNNING, attempts__gte=MAX_ATTEMPTS
    ).update(
        state=RunState.FAILED,
        finished_at=timezone.now(),
        step="",
        error=(
            f"The analysis was interrupted {MAX_ATTEMPTS} times: its worker process died "
            "(out of memory or over the time limit). Try a smaller bundle or raise "
            "RANKLENS_TASK_TIME_LIMIT."
        ),
    )
    if updated:
        AnalysisRun.objects.get(pk=run_id).show_on_incident(RunState.FAILED)


def _analyze(run: AnalysisRun) -> dict[str, Any]:
    bundle = run.incident.bundle
    options = AnalyzeOptions(
        checkpoint_patterns=(*settings.RANKLENS_CHECKPOINT_PATTERNS, *run.checkpoint_patterns),
        workers=settings.RANKLENS_ANALYZER_WORKERS,
        progress=_progress_reporter(run),
        store_dir=str(runstore.store_dir_for(run.pk)),  # issue 4: log viewer's line index
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


def _progress_reporter(run: AnalysisRun) -> Callable[[int, str], None]:
    """A progress callback that writes each new phase at once, and within one phase
    (e.g. "read <file>" per member) at most twice a second.

    Dropping a phase change would leave the page showing a stale step for as long as
    the next phase runs, which on a big file is minutes.
    """
    last = {"at": 0.0, "phase": None}

    def report(percent: int, step: str) -> None:
        now, phase = time.monotonic(), str(step).split(" ", 1)[0]
        if phase == last["phase"] and now - last["at"] < PROGRESS_MIN_INTERVAL_S:
            return
        last.update(at=now, phase=phase)
        percent = max(0, min(100, int(percent)))
        _claimed(run).update(progress=percent, step=str(step)[:200])

    return report


def _claimed(run: AnalysisRun):
    return AnalysisRun.objects.filter(
        pk=run.pk, state=RunState.RUNNING, claimed_by=run.claimed_by, started_at=run.started_at
    )


def _finish(run: AnalysisRun, *, state: str, report: dict | None = None, error: str = "") -> None:
    fields = {"state": state, "report": report, "error": error, "step": ""}
    if state == RunState.DONE:
        fields["progress"] = 100
        fields["fingerprint"] = fingerprint_of(report)
    updated = _claimed(run).update(
        **fields, finished_at=timezone.now(), analyzer_version=analyzers.__version__
    )
    if updated:
        run.show_on_incident(state)
