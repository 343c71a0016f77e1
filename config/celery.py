"""The Celery app. Configuration comes from Django settings (`CELERY_*` names)."""

import os

from celery import Celery

from incidents.runs.sweeper_step import SweeperStep

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("ranklens")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Autodiscovery imports `<app>.tasks`; the analysis task lives in the runs package.
app.autodiscover_tasks(["incidents.runs"])
# Re-queues runs that lost their message or their worker (see incidents/runs/sweeper_step.py).
app.steps["worker"].add(SweeperStep)
