"""What the incident page's triage panel and comment thread show, gathered in one place
so the detail view stays a page of includes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from incidents.runs.models import Incident
from incidents.triage.export_facts import incident_export_text
from incidents.triage.list_page import filter_choices


def triage_panel(
    incident: Incident, absolute: Callable[[str], str], draft: dict[str, str] | None = None
) -> dict[str, Any]:
    """The panel's current values, its form's choices, the comments, the incidents marked
    as duplicates of this one, and the ticket export (copied by the page's button).
    `draft`: the entries of a refused form post (triage/drafts.py), which the form shows,
    opened, instead of the stored values."""
    tickets = list(incident.tickets.all())
    tags = [tag.name for tag in incident.tags.all()]
    owner = incident.owner.get_username() if incident.owner else ""
    stored = {
        "triage_status": incident.triage_status,
        "duplicate_of": incident.duplicate_of.short_id if incident.duplicate_of else "",
        "owner": owner,
        "tags": ", ".join(tags),
        "tickets": "\n".join(ticket.url for ticket in tickets),
        "root_cause_category": incident.root_cause_category,
        "root_cause": incident.root_cause,
        "decision": incident.decision,
    }
    return {
        **filter_choices(),
        "tags": tags,
        "tickets": tickets,
        "triage_form": stored | (draft or {}),
        "triage_draft": bool(draft),
        "comments": incident.comments.select_related("author"),
        "duplicates": incident.duplicates.order_by("pk"),
        "export_text": incident_export_text(incident, absolute),
    }
