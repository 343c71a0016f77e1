"""Find runs nobody is working on any more and send them again, or give them up.

Two ways a run gets stuck without anyone noticing:

- queued, but its message is gone: Redis restarted without persistence, or the message
  was taken by a task that died before it claimed the run;
- running, but its worker is gone: the whole worker was killed, so nothing redelivers
  the message until Redis' visibility timeout (over an hour), or its final write failed
  for longer than the worker retried. Its heartbeat (incidents.runs.heartbeat) has stopped.

`decide` judges one run from plain values (no database); `sweep` applies the decisions
with conditional UPDATEs, so two sweepers, or a sweeper and a worker, never both act on
the same state of a run. Re-sent messages are harmless twice over: `analysis._claim`
lets only one delivery run the analysis.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from incidents.models import AnalysisRun, RunState
from incidents.runs import runstore, webhook, wording
from incidents.runs.analysis import MAX_ATTEMPTS

log = logging.getLogger(__name__)

# A broker that keeps losing one run's message is not going to deliver it.
MAX_REQUEUES = 5


class Action(Enum):
    LEAVE = "leave"
    RESEND = "resend"  # queued, message lost: send another one
    REQUEUE = "requeue"  # running, worker lost: back to queued, send a message
    FAIL = "fail"


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: str = ""  # why a run is failed
    step: str = ""  # what a run sent again shows meanwhile, when not the action's usual step


@dataclass(frozen=True)
class Limits:
    stale: timedelta
    queued_grace: timedelta

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            stale=timedelta(seconds=settings.RANKLENS_HEARTBEAT_STALE_SECONDS),
            queued_grace=timedelta(seconds=settings.RANKLENS_QUEUED_GRACE_SECONDS),
        )


def decide(
    run: AnalysisRun, *, now: datetime, limits: Limits, in_flight: Collection[int] | None
) -> Decision:
    """What to do with `run`. `in_flight`: run ids with a message in the broker, or None
    when the broker cannot tell (then a queued run's age alone decides)."""
    if run.state == RunState.QUEUED:
        return _decide_queued(run, now=now, limits=limits, in_flight=in_flight)
    if run.state == RunState.RUNNING:
        return _decide_running(run, now=now, limits=limits)
    return Decision(Action.LEAVE)


def _decide_queued(
    run: AnalysisRun, *, now: datetime, limits: Limits, in_flight: Collection[int] | None
) -> Decision:
    last_sign = run.heartbeat_at or run.created_at
    if now - last_sign < limits.queued_grace:
        return Decision(Action.LEAVE)
    if in_flight is not None and run.pk in in_flight:
        return Decision(Action.LEAVE)  # waiting its turn behind other analyses
    if run.requeues >= MAX_REQUEUES:
        return Decision(Action.FAIL, wording.english(wording.QUEUE_LOST, times=run.requeues))
    if run.timed_out_delivery and not run.attempts:
        # Its delivery's time limit ran out before the claim (a busy pool, a database that
        # did not answer): the message was used, not lost, and the claim is refused.
        return Decision(Action.RESEND, step=wording.TIMED_OUT_UNCLAIMED_STEP)
    return Decision(Action.RESEND)


def _decide_running(run: AnalysisRun, *, now: datetime, limits: Limits) -> Decision:
    last_sign = run.heartbeat_at or run.started_at or run.created_at
    if now - last_sign < limits.stale:
        return Decision(Action.LEAVE)
    if run.attempts >= MAX_ATTEMPTS:
        silent = int((now - last_sign).total_seconds())
        reason = wording.english(wording.WORKER_SILENT, times=run.attempts, seconds=silent)
        return Decision(Action.FAIL, reason)
    return Decision(Action.REQUEUE)


def candidates(*, now: datetime, limits: Limits) -> list[AnalysisRun]:
    """Runs whose last sign of life is old enough for `decide` to look at."""
    queued_before, stale_before = now - limits.queued_grace, now - limits.stale
    quiet_queued = Q(state=RunState.QUEUED) & (
        Q(heartbeat_at__lt=queued_before)
        | Q(heartbeat_at__isnull=True, created_at__lt=queued_before)
    )
    quiet_running = Q(state=RunState.RUNNING) & (
        Q(heartbeat_at__lt=stale_before) | Q(heartbeat_at__isnull=True, started_at__lt=stale_before)
    )
    fields = ("pk", "incident_id", "state", "attempts", "requeues", "heartbeat_at")
    fields += ("timed_out_delivery", "created_at", "started_at")
    runs = AnalysisRun.objects.filter(quiet_queued | quiet_running)
    return list(runs.only(*fields).order_by("pk"))


def queued_run_ids() -> set[int]:
    """Runs waiting for a worker: the only ones whose delivered message needs a live holder."""
    return set(AnalysisRun.objects.filter(state=RunState.QUEUED).values_list("pk", flat=True))


def sweep(
    *,
    send: Callable[[int], None],
    in_flight: Callable[[], Collection[int] | None],
    now: datetime | None = None,
    limits: Limits | None = None,
) -> dict[Action, int]:
    """One pass: act on every quiet run. `send(run_id)` queues the analysis task."""
    now = now or timezone.now()
    limits = limits or Limits.from_settings()
    runs = candidates(now=now, limits=limits)
    flying = in_flight() if any(run.state == RunState.QUEUED for run in runs) else None
    counts = dict.fromkeys(Action, 0)
    for run in runs:
        decision = decide(run, now=now, limits=limits, in_flight=flying)
        if decision.action is not Action.LEAVE and _apply(run, decision, now=now, send=send):
            counts[decision.action] += 1
    return counts


def _apply(run: AnalysisRun, decision: Decision, *, now: datetime, send) -> bool:
    """Change the run only if it is still as it was read; True if it was changed."""
    unchanged = AnalysisRun.objects.filter(
        pk=run.pk, state=run.state, attempts=run.attempts, heartbeat_at=run.heartbeat_at
    )
    if decision.action is Action.FAIL:
        changed = unchanged.update(
            state=RunState.FAILED, error=decision.reason, step="", finished_at=now
        )
        if changed:
            run.show_on_incident(RunState.FAILED)
            runstore.remove_store(run.pk)
            webhook.queue_run_notice(run.pk)
            log.warning("run %s failed by the sweeper: %s", run.pk, decision.reason)
        return bool(changed)
    fields = {"state": RunState.QUEUED, "heartbeat_at": now}
    if decision.action is Action.RESEND:
        fields["requeues"] = run.requeues + 1
        fields["step"] = decision.step or wording.QUEUE_LOST_STEP
    else:
        fields |= {"claimed_by": "", "progress": 0}
        fields["step"] = wording.WORKER_LOST_STEP
    if not unchanged.update(**fields):
        return False
    if decision.action is Action.REQUEUE:
        run.show_on_incident(RunState.QUEUED)
    log.warning("run %s: %s", run.pk, fields["step"])
    try:
        send(run.pk)
    except Exception:
        # Still queued with a fresh sign of life: the next sweep after the grace tries again.
        log.exception("run %s: could not queue it again", run.pk)
    return True
