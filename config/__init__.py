"""Project configuration: settings, root URLs, the Celery app.

Importing the Celery app here makes `celery -A config worker` and Django's
`shared_task` use the same app.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
