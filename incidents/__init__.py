"""Incidents: upload a log bundle, analyze it in a Celery worker, show the result."""
