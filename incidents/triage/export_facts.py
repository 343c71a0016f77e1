"""Gathers what the ticket export says about an incident from the database; the wording
itself is `incidents.triage.export` (pure, so it is tested without a database)."""

from __future__ import annotations

from collections.abc import Callable

from incidents.evidence.links import file_url
from incidents.runs import wording
from incidents.runs.models import Incident, RunState
from incidents.triage.export import ExportFacts, export_markdown

# A site path -> the absolute URL people can open (request.build_absolute_uri).
Absolute = Callable[[str], str]


def export_facts(incident: Incident, absolute: Absolute) -> ExportFacts:
    """The incident's triage fields and its latest run: the diagnosis when it finished,
    else its state (a re-analysis in progress says so rather than quoting an old report)."""
    run = incident.latest_run()
    state = run.state if run is not None else ""
    report = run.report if run is not None and state == RunState.DONE else None
    original = incident.duplicate_of
    return ExportFacts(
        short_id=incident.short_id,
        title=incident.title,
        url=absolute(incident.get_absolute_url()),
        triage_status=str(incident.get_triage_status_display()),
        analysis_status=state,
        owner=incident.owner.get_username() if incident.owner else "",
        tickets=[(t.key, t.url) for t in incident.tickets.all()],
        analysis_error=wording.reason_text(run.error) if run is not None else "",
        diagnosis=(report or {}).get("diagnosis") or None,
        root_cause_category=incident.root_cause_category,
        duplicate_of=(original.short_id, absolute(original.get_absolute_url()))
        if original
        else None,
    )


def incident_export_text(incident: Incident, absolute: Absolute) -> str:
    def line_url(path: str, line: int | None) -> str:
        url = file_url(incident.pk, path, line)
        return absolute(url) if url else ""

    return export_markdown(export_facts(incident, absolute), line_url)
