"""A refused triage form's entries, kept for the one page view the refusal goes back to.

The incident page's triage form posts without a script; a refused value (a tag of the wrong
shape, a ticket that is no URL) sends the browser back with the reason. The entries travel
in the session so that page shows them again instead of the stored values: one bad tag must
not cost the root cause someone just wrote.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from incidents.runs.models import Incident

SESSION_KEY = "triage_draft"


def keep(request: HttpRequest, incident: Incident, entries: Mapping[str, str | None]) -> None:
    values = {name: value for name, value in entries.items() if value is not None}
    request.session[SESSION_KEY] = {"incident": incident.pk, "values": values}


def take(request: HttpRequest, incident: Incident) -> dict[str, str]:
    """The entries kept for this incident's page (then forgotten), or {}."""
    draft = request.session.get(SESSION_KEY)
    if not draft:
        return {}
    del request.session[SESSION_KEY]
    return dict(draft["values"]) if draft.get("incident") == incident.pk else {}
