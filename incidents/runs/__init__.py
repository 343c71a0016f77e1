"""Upload and analysis runs: stored bundles, the Celery task and its body, heartbeat, sweeper,
broker checks, the upload pages and forms."""
