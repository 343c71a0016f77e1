"""JSON API for CI jobs: upload a bundle, poll its analysis."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from incidents.accounts.tokens import token_required
from incidents.api.errors import api_error
from incidents.models import Incident
from incidents.runs import services
from incidents.runs.forms import BundleUploadForm


@csrf_exempt
@require_POST
@token_required
def incident_create(request: HttpRequest) -> JsonResponse:
    form = BundleUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        status = 413 if form.is_too_large() else 400
        return api_error(form.first_error(), status, errors=form.errors.get_json_data())
    incident = services.incident_create(
        upload=form.cleaned_data["bundle"],
        title=form.cleaned_data["title"],
        created_by=request.user,
    )
    return JsonResponse(_links(request, incident), status=201)


@require_GET
@token_required
def incident_status(request: HttpRequest, number: int) -> JsonResponse:
    incident = get_object_or_404(Incident.objects.select_related("bundle"), pk=number)
    run = incident.latest_run()
    data = _links(request, incident) | {"title": incident.title}
    if run is None:
        return JsonResponse(
            data | {"status": incident.status, "progress": 0, "error": None, "report": None}
        )
    return JsonResponse(data | run.status_dict(with_report=True))


def _links(request: HttpRequest, incident: Incident) -> dict[str, str]:
    status_path = reverse("api:incident", kwargs={"number": incident.pk})
    return {
        "id": incident.short_id,
        "url": request.build_absolute_uri(incident.get_absolute_url()),
        "status_url": request.build_absolute_uri(status_path),
    }
