"""Incidents for CI jobs: upload a bundle, poll its analysis."""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import Router, Status

from incidents.api.auth import TOKEN_ONLY
from incidents.api.errors import api_error
from incidents.api.schemas import ApiError, IncidentLinks, IncidentStatus
from incidents.models import Incident
from incidents.runs import services
from incidents.runs.forms import BundleUploadForm

router = Router(tags=["incidents"], auth=TOKEN_ONLY)

UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["bundle"],
                    "properties": {
                        "bundle": {
                            "type": "string",
                            "format": "binary",
                            "description": "The job's logs: .tar, .tar.gz/.tgz, .zip, "
                            "or one .log/.txt/.gz file.",
                        },
                        "title": {
                            "type": "string",
                            "maxLength": 200,
                            "description": "A name for the incident (optional).",
                        },
                    },
                }
            }
        },
    }
}

STATUS_DESCRIPTION = """\
The latest analysis run of the incident. Poll until `status` is `done` or `failed`:
`report` is the full analysis once done, `error` says why it failed."""


@router.post(
    "/incidents/",
    url_name="incidents",
    operation_id="uploadBundle",
    summary="Upload a log bundle",
    description="Stores the bundle as a new incident and queues its analysis. Nothing is "
    "stored when the upload is refused. The body is multipart, read only after the token "
    "was accepted.",
    response={
        201: IncidentLinks,
        400: ApiError,
        401: ApiError,
        413: ApiError,
        503: ApiError,
        507: ApiError,
    },
    openapi_extra=UPLOAD_BODY,
)
def incident_create(request: HttpRequest):
    # The form, not a ninja File/Form parameter, validates the upload: its messages and
    # `errors` (400/413) are the contract CI jobs already parse.
    form = BundleUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        status = 413 if form.is_too_large() else 400
        return api_error(form.first_error(), status, errors=form.errors.get_json_data())
    incident = services.incident_create(
        upload=form.cleaned_data["bundle"],
        title=form.cleaned_data["title"],
        created_by=request.user,
    )
    return Status(201, links(request, incident))


@router.get(
    "/incidents/INC-{int:number}/",
    url_name="incident",
    operation_id="getIncident",
    summary="Analysis status and report",
    description=STATUS_DESCRIPTION,
    response={200: IncidentStatus, 401: ApiError, 404: ApiError},
    exclude_unset=True,
)
def incident_status(request: HttpRequest, number: int):
    return status_dict(request, number)


@router.get(
    "/incidents/{int:number}/",
    url_name="incident-by-number",
    operation_id="getIncidentByNumber",
    summary="Analysis status and report, by plain number",
    description="The same answer as `/api/incidents/INC-<n>/`, for clients that keep the "
    "number only.",
    response={200: IncidentStatus, 401: ApiError, 404: ApiError},
    exclude_unset=True,
)
def incident_status_by_number(request: HttpRequest, number: int):
    return status_dict(request, number)


def status_dict(request: HttpRequest, number: int) -> dict:
    incident = get_object_or_404(Incident.objects.select_related("bundle"), pk=number)
    run = incident.latest_run()
    data = links(request, incident) | {"title": incident.title}
    if run is None:
        return data | {"status": incident.status, "progress": 0, "error": None, "report": None}
    return data | run.status_dict(with_report=True)


def links(request: HttpRequest, incident: Incident) -> dict[str, str]:
    status_path = reverse("api:incident", kwargs={"number": incident.pk})
    return {
        "id": incident.short_id,
        "url": request.build_absolute_uri(incident.get_absolute_url()),
        "status_url": request.build_absolute_uri(status_path),
    }
