"""The evidence log viewer: any bundle file around a line, with the line highlighted."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from incidents.evidence import links as evidence
from incidents.evidence import logview
from incidents.models import Incident


@login_required
@require_GET
def incident_file(request: HttpRequest, number: int, path: str) -> HttpResponse:
    incident = get_object_or_404(Incident.objects.select_related("bundle"), pk=number)
    try:
        target = _positive(request.GET.get("line"), "line")
        start = _positive(request.GET.get("start"), "start")
    except ValueError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain; charset=utf-8")
    try:
        source = evidence.open_log_source(incident, path)
    except logview.FileNotInBundle as error:
        raise Http404(str(error)) from error
    page = logview.build_page(source, target, start)
    context = {"incident": incident, "path": path, "page": page}
    return render(request, "incidents/file.html", context)


def _positive(raw: str | None, name: str) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or int(raw) < 1:
        message = gettext("%(name)s must be a line number (1 or more), not %(value)r")
        raise ValueError(message % {"name": name, "value": raw[:40]})
    return int(raw)
