"""Celery entry points. They only adapt; the work is in incidents.runs.analysis."""

from celery import Task, shared_task
from celery.exceptions import TimeLimitExceeded

from incidents.runs import analysis, dbretry, webhook


class AnalysisTask(Task):
    def apply_async(self, args=None, kwargs=None, **options):
        """A message carries no time limits, so the worker's own settings
        (RANKLENS_TASK_TIME_LIMIT) decide them, not those of whoever sent it."""
        options.setdefault("time_limit", None)
        options.setdefault("soft_time_limit", None)
        return super().apply_async(args, kwargs, **options)

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        """At the hard time limit the pool child cannot say so: the worker's main process
        calls this before it kills the child, and records the limit on the run (which the
        child, on a loaded machine, may not have claimed yet)."""
        if isinstance(exc, TimeLimitExceeded) and args:
            try:
                analysis.fail_over_time_limit(run_id=int(args[0]), delivery_id=task_id)
            finally:
                dbretry.reconnect()  # the main process holds no connection between tasks


@shared_task(
    name="incidents.tasks.analyze_bundle",  # the name queued messages carry
    base=AnalysisTask,
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def analyze_bundle(self, run_id: int) -> None:
    """Analyze one run. A redelivered message (its worker died) carries the same id."""
    analysis.analyze_run(run_id=run_id, delivery_id=self.request.id or "")


@shared_task(
    name="incidents.tasks.notify_run_finished",
    autoretry_for=(webhook.WebhookUnavailable,),
    retry_backoff=5,  # 5, 10, 20, 40 ... seconds (with jitter), at most 10 minutes apart
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=6,
    ignore_result=True,
)
def notify_run_finished(run_id: int) -> None:
    """Post the notice of a finished run to the webhook; its failures never touch the run."""
    webhook.send_run_notice(run_id)
