"""A run's progress step and failure reason in the page's language.

Both are stored in English on the run (`AnalysisRun.step`, `.error`): the worker has no
reader's language, and the webhook and the API (always English) carry them as stored. Each
text Ranklens writes is known, so a page re-says it when it shows it:

- the analyzer's progress steps (`analyzers.pipeline`) and the task's and sweeper's own
  steps and failure reasons are gettext msgids below; the code that stores one fills the
  msgid itself (`english`), so the stored text and its translation come from one template;
- a bundle the analyzer cannot read fails the run with a phrasebook sentence (`error.*` in
  analyzers/knowledge/phrases.yaml), re-filled into its Chinese twin.

Anything else (an exception's own words, a wording older than these) is shown as stored.
"""

from __future__ import annotations

import re
from functools import cache

from django.utils.translation import gettext, gettext_noop

from analyzers.core.phrases import refilled
from incidents.localized import is_chinese

# --- progress steps --------------------------------------------------------------------------
STARTING = gettext_noop("starting")
QUEUE_LOST_STEP = gettext_noop("queued again (the task queue lost the first message)")
WORKER_LOST_STEP = gettext_noop("queued again (the previous worker stopped answering)")
TIMED_OUT_UNCLAIMED_STEP = gettext_noop(
    "queued again (the first delivery ran out of time before it could start)"
)
# What analyzers.pipeline reports, word for word (tests/incidents/runs/test_wording.py
# runs an analysis and checks that each of its steps is one of these).
ANALYZER_STEPS = (
    gettext_noop("reading log files"),
    gettext_noop("reading logs"),
    gettext_noop("read %(path)s"),
    gettext_noop("correlating rank timelines"),
    gettext_noop("classifying the failure"),
    gettext_noop("walking the diagnosis tree and matching known cases"),
    gettext_noop("writing the report"),
)
STEPS = (STARTING, QUEUE_LOST_STEP, WORKER_LOST_STEP, TIMED_OUT_UNCLAIMED_STEP, *ANALYZER_STEPS)

# --- failure reasons -------------------------------------------------------------------------
QUEUE_LOST = gettext_noop(
    "The task queue lost this analysis %(times)s times, so it never started. "
    "Check that Redis is up, then use “Analyze again”."
)
WORKER_SILENT = gettext_noop(
    "The analysis was interrupted %(times)s times: its worker stopped answering (no heartbeat "
    "for %(seconds)s s; killed, out of memory or cut off from the database). Try a smaller "
    "bundle or “Analyze again” later."
)
WORKER_DIED = gettext_noop(
    "The analysis was interrupted %(times)s times: its worker process died (out of memory or "
    "over the time limit). Try a smaller bundle or raise RANKLENS_TASK_TIME_LIMIT."
)
QUEUE_UNREACHABLE = gettext_noop(
    "The task queue could not be reached, so the analysis did not start. Try “Analyze again” later."
)
STOPPED = gettext_noop("The analysis stopped unexpectedly (%(error)s).")
NOT_STORED = gettext_noop("The report could not be stored (%(error)s).")
OVER_TIME_LIMIT = gettext_noop(
    "The analysis took longer than its time limit (%(seconds)s s) and was stopped. "
    "Try a smaller bundle or raise RANKLENS_TASK_TIME_LIMIT."
)
REASONS = (
    *(QUEUE_LOST, WORKER_SILENT, WORKER_DIED, QUEUE_UNREACHABLE, STOPPED, NOT_STORED),
    OVER_TIME_LIMIT,
)


def english(msgid: str, **values: object) -> str:
    """The text to store: the msgid filled in, untranslated."""
    return msgid % values if values else msgid


def step_text(stored: str) -> str:
    """A run's stored step as the page shows it."""
    return _said_again(stored, STEPS) or stored


def reason_text(stored: str) -> str:
    """A failed run's stored reason as the page shows it."""
    shown = _said_again(stored, REASONS)
    if shown is None and is_chinese():
        shown = refilled(stored, "error.")
    return shown or stored


def status_texts(status: dict) -> dict:
    """A run's status answer (`AnalysisRun.status_dict`) with its step and reason re-said."""
    return status | {
        "step": step_text(status.get("step") or ""),
        "error": reason_text(status["error"]) if status.get("error") else status.get("error"),
    }


def _said_again(stored: str, msgids: tuple[str, ...]) -> str | None:
    """`stored` in the active language when one of `msgids` made it, else None."""
    for msgid in msgids:
        match = _pattern(msgid).fullmatch(stored)
        if match is not None:
            values = match.groupdict()
            return gettext(msgid) % values if values else gettext(msgid)
    return None


_NAMED = re.compile(r"%\((\w+)\)s")


@cache
def _pattern(msgid: str) -> re.Pattern[str]:
    """A regex matching the msgid filled with any values."""
    parts, at = [], 0
    for placeholder in _NAMED.finditer(msgid):
        parts.append(re.escape(msgid[at : placeholder.start()]))
        parts.append(f"(?P<{placeholder.group(1)}>.*?)")
        at = placeholder.end()
    parts.append(re.escape(msgid[at:]))
    return re.compile("".join(parts), re.DOTALL)
