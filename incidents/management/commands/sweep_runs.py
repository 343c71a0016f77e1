"""`python manage.py sweep_runs`: one pass of the run sweeper, e.g. from cron.

Workers already sweep every RANKLENS_SWEEP_SECONDS; this is for a site with no worker
running (a queue being drained elsewhere) or to look at once after an outage.
"""

from django.core.management.base import BaseCommand

from config.celery import app
from incidents.runs import broker, sweeper
from incidents.runs.tasks import analyze_bundle


class Command(BaseCommand):
    help = "Re-queue runs that lost their message or their worker; fail those out of attempts."

    def handle(self, *args, **options) -> None:
        counts = sweeper.sweep(
            send=lambda run_id: analyze_bundle.delay(run_id),
            in_flight=lambda: broker.runs_in_flight(app, about=sweeper.queued_run_ids()),
        )
        for action, count in counts.items():
            if action is not sweeper.Action.LEAVE:
                self.stdout.write(f"{action.value}: {count}")
