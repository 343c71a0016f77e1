"""The words for a rank's status in the page's language.

The report keeps each rank's status as an English key (`ranks[].status`: ok, error, hung,
missing, killed; `analyzers/schema/report.schema.json`), which the rank table and the
meeting screen would otherwise show as is on a Chinese page. The timeline's lanes say the
same words through the JavaScript catalog (`static/js/timeline.js`).
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

STATUS_WORDS = {
    "ok": pgettext_lazy("rank status", "ok"),
    "error": pgettext_lazy("rank status", "error"),
    "hung": pgettext_lazy("rank status", "hung"),
    "missing": pgettext_lazy("rank status", "missing"),
    "killed": pgettext_lazy("rank status", "killed"),
}


def status_words(status: str) -> str:
    """`status` in the active language; a key it has no words for shows as stored."""
    return str(STATUS_WORDS.get(status, status))
