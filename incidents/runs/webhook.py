"""Announce a finished run (done or failed) to RANKLENS_WEBHOOK_URL, e.g. a Slack channel.

The announcement is a Celery task of its own, queued once the run's outcome is committed,
so a slow or broken receiver never delays, retries or fails the analysis itself. The task
retries transient failures (network errors, 5xx) with backoff a bounded number of times.
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.error
import urllib.request
from typing import Any

from django.conf import settings
from django.db import transaction

from incidents.models import AnalysisRun, RunState

log = logging.getLogger(__name__)

TIMEOUT_S = 10


class WebhookUnavailable(Exception):
    """The receiver could not take the message now (network error, 5xx): worth a retry."""


def queue_run_notice(run_id: int) -> None:
    """Queue the announcement of run `run_id` for after the current transaction commits.

    Called where a run's final state is written; does nothing without a webhook URL.
    """
    if settings.RANKLENS_WEBHOOK_URL:
        transaction.on_commit(lambda: _send_task(run_id))


def _send_task(run_id: int) -> threading.Thread | None:
    """Queue the notice task; when the broker can't take it, post once from here instead.

    The broker being down is exactly when a run fails before any worker saw it, and that is
    the notice people most need. The direct post runs on a daemon thread with no retry, so
    the request that ended the run is not held up by a slow receiver.
    """
    from incidents.runs.tasks import notify_run_finished  # the tasks module imports this one

    try:
        notify_run_finished.delay(run_id)
        return None
    except Exception:
        log.warning("run %s: broker unreachable, posting its webhook notice directly", run_id)
    run = AnalysisRun.objects.select_related("incident").filter(pk=run_id).first()
    if run is None:
        return None
    thread = threading.Thread(
        target=_post_once, args=(run_notice(run),), name=f"webhook-run-{run_id}", daemon=True
    )
    thread.start()
    return thread


def _post_once(body: dict[str, Any]) -> None:
    try:
        post_notice(settings.RANKLENS_WEBHOOK_URL, body)
    except WebhookUnavailable as error:
        log.error("webhook notice for %s lost: %s", body.get("incident"), error)


def run_notice(run: AnalysisRun) -> dict[str, Any]:
    """The JSON body: Slack's `text`, plus the same facts as fields for other receivers."""
    incident = run.incident
    diagnosis = ((run.report or {}).get("diagnosis") or {}) if run.state == RunState.DONE else {}
    fields = {
        "incident": incident.short_id,
        "url": incident_url(incident.get_absolute_url()),
        "title": incident.title,
        "status": run.state,
        "category": diagnosis.get("category"),
        "confidence": diagnosis.get("confidence"),
        "culprit_ranks": diagnosis.get("culprit_ranks") or [],
        "first_error": diagnosis.get("first_error"),
        "error": run.error or None,
    }
    return {"text": notice_text(fields), **fields}


def incident_url(path: str) -> str:
    return f"{settings.RANKLENS_BASE_URL}{path}"


def notice_text(fields: dict[str, Any]) -> str:
    """`INC-7 my job: done — hccl (0.86), culprit ranks 2; <url>`, escaped for Slack."""
    head = f"{fields['incident']} {fields['title']}: {fields['status']}"
    if fields["status"] == RunState.DONE:
        verdict = str(fields["category"] or "no category")
        if isinstance(fields["confidence"], int | float):
            verdict += f" ({fields['confidence']:.2f})"
        ranks = ", ".join(str(rank) for rank in fields["culprit_ranks"])
        verdict += f", culprit ranks {ranks}" if ranks else ", no culprit rank"
    else:
        verdict = fields["error"] or "no reason given"
    return _slack_escaped(f"{head} — {verdict}; {fields['url']}")


def _slack_escaped(text: str) -> str:
    """Slack reads <...> as links and mentions; a title must not ping a channel."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def post_notice(url: str, body: dict[str, Any]) -> None:
    """POST `body` as JSON. Raise WebhookUnavailable when a retry may succeed.

    A 4xx answer (a wrong or revoked webhook URL) would be refused again: it is logged,
    not retried.
    """
    request = urllib.request.Request(
        url,
        data=json.dumps(body, ensure_ascii=False).encode(),
        headers={"Content-Type": "application/json; charset=utf-8"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            response.read()
    except urllib.error.HTTPError as error:
        if error.code >= 500 or error.code == 429:
            raise WebhookUnavailable(f"HTTP {error.code} {error.reason}") from error
        log.error("webhook refused the notice for %s: HTTP %s", body.get("incident"), error.code)
    except (urllib.error.URLError, OSError) as error:
        raise WebhookUnavailable(str(getattr(error, "reason", error))) from error


def send_run_notice(run_id: int) -> None:
    """The task's body: read the run as it ended and post its notice."""
    run = AnalysisRun.objects.select_related("incident").filter(pk=run_id).first()
    if run is None or run.state not in (RunState.DONE, RunState.FAILED):
        return  # deleted, or re-queued since: a later end sends its own notice
    if settings.RANKLENS_WEBHOOK_URL:
        post_notice(settings.RANKLENS_WEBHOOK_URL, run_notice(run))
