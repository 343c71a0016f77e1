"""What the incident page's triage panel and comment thread show, gathered in one place
so the detail view stays a page of includes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from incidents.runs.models import Incident
from incidents.triage.export_facts import incident_export_text
from incidents.triage.list_page import filter_choices


def triage_panel(incident: Incident, absolute: Callable[[str], str]) -> dict[str, Any]:
    """The panel's current values, its form's choices, the comments, the incidents marked
    as duplicates of this one, and the ticket export (copied by the page's button)."""
    tickets = list(incident.tickets.all())
    return {
        **filter_choices(),
        "tags": [tag.name for tag in incident.tags.all()],
        "tickets": tickets,
        "tickets_text": "\n".join(ticket.url for ticket in tickets),
        "comments": incident.comments.select_related("author"),
        "duplicates": incident.duplicates.order_by("pk"),
        "export_text": incident_export_text(incident, absolute),
    }
