"""Errors the analyzers raise for bad input (as opposed to bugs).

Callers (CLI, Celery task) show `str(error)` to the user and do not retry.
"""


class BundleError(Exception):
    """The bundle cannot be read: not an archive or log, truncated, or unreadable."""
