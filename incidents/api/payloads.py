"""The API's incident answers built from the models and the triage services' rows.

Kept out of the handlers so each shape is testable without a server; every URL in them is
absolute, built from the request, so a CI job can follow it as it is.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from incidents.models import Incident
from incidents.runs import wording
from incidents.triage.listing import IncidentFilters, IncidentPage, incident_row
from incidents.triage.markdown import render_markdown
from incidents.triage.models import Comment

# The triage fields the detail answer adds to the list row's.
DETAIL_TEXT_FIELDS = ("root_cause", "root_cause_category", "decision")


def links(request: HttpRequest, incident: Incident) -> dict[str, str]:
    status_path = reverse("api:incident", kwargs={"number": incident.pk})
    return {
        "id": incident.short_id,
        "url": request.build_absolute_uri(incident.get_absolute_url()),
        "status_url": request.build_absolute_uri(status_path),
    }


def list_row(request: HttpRequest, incident: Incident) -> dict[str, Any]:
    """The list page's row, with an absolute `url` in place of the page path."""
    row = incident_row(incident)
    path = row.pop("path")
    return row | {"url": request.build_absolute_uri(path)}


def incident_detail(request: HttpRequest, incident: Incident) -> dict[str, Any]:
    """The latest run's status and report, with the incident's triage fields.

    `status` is the analysis state (the latest run's), never the triage state."""
    run = incident.latest_run()
    data = links(request, incident) | {"title": incident.title}
    if run is None:
        data |= {"status": incident.status, "progress": 0, "error": None, "report": None}
    else:
        data |= wording.status_texts(run.status_dict(with_report=True))
    row = incident_row(incident)
    for name in ("id", "title", "status", "path"):
        row.pop(name)
    data |= row
    data |= {name: getattr(incident, name) for name in DETAIL_TEXT_FIELDS}
    duplicate_of = incident.duplicate_of
    data["duplicate_of"] = duplicate_of.short_id if duplicate_of else None
    return data


def page_links(
    request: HttpRequest, filters: IncidentFilters, page: IncidentPage
) -> dict[str, str | None]:
    """Absolute `next` and `previous` URLs that keep the filters (None at either end)."""

    def url(number: int) -> str:
        query = filters.query_string(page=number, per_page=page.per_page)
        return request.build_absolute_uri(f"{request.path}?{query}")

    return {
        "next": url(page.page + 1) if page.has_next else None,
        "previous": url(page.page - 1) if page.has_previous else None,
    }


def incident_list(
    request: HttpRequest, filters: IncidentFilters, page: IncidentPage
) -> dict[str, Any]:
    return (
        {"count": page.count}
        | page_links(request, filters, page)
        | {"results": [list_row(request, incident) for incident in page.items]}
    )


def comment(item: Comment) -> dict[str, Any]:
    return {
        "id": item.pk,
        "author": item.author_name,
        "body": item.body,
        "body_html": str(render_markdown(item.body)),
        "created_at": item.created_at.isoformat(),
    }
