"""The Celery app. Configuration comes from Django settings (`CELERY_*` names)."""

import os

from celery import Celery

from incidents.sweeper_step import SweeperStep

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("ranklens")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Re-queues runs that lost their message or their worker (see incidents/sweeper_step.py).
app.steps["worker"].add(SweeperStep)
