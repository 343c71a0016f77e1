"""Page-side triage writes: the incident page's triage panel and the meeting view post
here. A form post comes back to the page it came from; a script asking for JSON gets the
incident's row (or the field that was refused) and stays where it is."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from incidents.runs.models import Incident
from incidents.triage import drafts
from incidents.triage.export_facts import incident_export_text
from incidents.triage.listing import incident_row
from incidents.triage.markdown import render_markdown
from incidents.triage.services import EDITABLE_FIELDS, comment_add, triage_update
from incidents.triage.validation import TriageInvalid


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _back_url(request: HttpRequest, incident: Incident) -> str:
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else incident.get_absolute_url()


def _back(request: HttpRequest, incident: Incident) -> HttpResponse:
    return redirect(_back_url(request, incident))


def _refused(request: HttpRequest, incident: Incident, invalid: TriageInvalid) -> HttpResponse:
    if _wants_json(request):
        body = {"error": invalid.for_people(), "status": 400, "field": invalid.field}
        return JsonResponse(body, status=400)
    messages.error(request, invalid.for_people())
    return _back(request, incident)


@login_required
@require_POST
def triage_edit(request: HttpRequest, number: int) -> HttpResponse:
    """Change the fields the form sent (a field left out stays as it is)."""
    incident = get_object_or_404(Incident, pk=number)
    changes = {name: request.POST.get(name) for name in EDITABLE_FIELDS if name in request.POST}
    try:
        triage_update(incident=incident, actor=request.user, changes=changes)
    except TriageInvalid as invalid:
        # The incident page shows the form again as sent (a script keeps its own form).
        back = _back_url(request, incident)
        if not _wants_json(request) and back.startswith(incident.get_absolute_url()):
            drafts.keep(request, incident, changes)
        return _refused(request, incident, invalid)
    if _wants_json(request):
        return JsonResponse(incident_row(incident))
    return _back(request, incident)


@login_required
@require_POST
def comment_create(request: HttpRequest, number: int) -> HttpResponse:
    incident = get_object_or_404(Incident, pk=number)
    try:
        comment = comment_add(
            incident=incident, author=request.user, body=request.POST.get("body", "")
        )
    except TriageInvalid as invalid:
        return _refused(request, incident, invalid)
    if _wants_json(request):
        data = {
            "id": comment.pk,
            "author": comment.author_name,
            "body": comment.body,
            "body_html": str(render_markdown(comment.body)),
            "created_at": comment.created_at.isoformat(),
        }
        return JsonResponse(data, status=201)
    return _back(request, incident)


@login_required
@require_GET
def incident_export(request: HttpRequest, number: int) -> HttpResponse:
    """The incident as Markdown for a ticket (what the page's copy button copies)."""
    incident = get_object_or_404(
        Incident.objects.select_related("owner", "duplicate_of"), pk=number
    )
    text = incident_export_text(incident, request.build_absolute_uri)
    return HttpResponse(text, content_type="text/markdown; charset=utf-8")
