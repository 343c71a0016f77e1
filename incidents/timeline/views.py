"""The timeline's data endpoint: one window of the rank-by-rank checkpoint timeline."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from incidents.evidence.links import file_urls
from incidents.models import AnalysisRun, Incident, RunState
from incidents.runs import runstore
from incidents.timeline import charts


@login_required
@require_GET
@gzip_page
def incident_timeline(request: HttpRequest, number: int) -> JsonResponse:
    incident = get_object_or_404(Incident, pk=number)
    try:
        query = charts.parse_timeline_query(request.GET)
        run = _finished_run(incident, request.GET.get("run"))
    except charts.TimelineQueryError as error:
        return JsonResponse({"error": str(error)}, status=400)
    if run is None:
        message = gettext("this incident has no finished analysis yet")
        return JsonResponse({"error": message}, status=404)
    payload = charts.timeline_payload(runstore.prepared_timeline(run), query)
    payload["file_urls"] = file_urls(number, payload["files"])
    payload["run"] = run.pk
    return JsonResponse(payload)


def _finished_run(incident: Incident, raw_id: str | None) -> AnalysisRun | None:
    """The run named by `?run=` (links stay on the run the page showed), else the newest."""
    runs = AnalysisRun.objects.filter(incident=incident, state=RunState.DONE).defer("report")
    if raw_id:
        if not raw_id.isdigit():
            raise charts.TimelineQueryError(gettext("run must be a run number"))
        return runs.filter(pk=int(raw_id)).first()
    return runs.order_by("-pk").first()
