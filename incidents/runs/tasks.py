"""Celery entry points. They only adapt; the work is in incidents.runs.analysis."""

from celery import shared_task

from incidents.runs import analysis


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
