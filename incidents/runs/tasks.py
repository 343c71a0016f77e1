"""Celery entry points. They only adapt; the work is in incidents.runs.analysis."""

from celery import shared_task

from incidents.runs import analysis, webhook


@shared_task(
    name="incidents.tasks.analyze_bundle",  # the name queued messages carry
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
