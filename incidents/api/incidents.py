"""Incidents for CI jobs and scripts: upload a bundle, poll its analysis, list and filter
incidents, change their triage fields, read and add comments.

Handlers only read the request and call the services: `incidents.runs.services` stores
uploads, `incidents.triage` filters, validates and records changes, and
`incidents.api.payloads` shapes the answers. A refused filter or change raises
`FilterInvalid`/`TriageInvalid`, answered 422 naming the field by the exception handlers.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Query, Router, Status

from incidents.api import payloads
from incidents.api.auth import LOGIN_OR_TOKEN, TOKEN_ONLY
from incidents.api.errors import api_error
from incidents.api.list_params import IncidentListParams
from incidents.api.schemas import (
    COMMON_ERRORS,
    ApiError,
    CommentIn,
    CommentOut,
    IncidentDetail,
    IncidentLinks,
    IncidentList,
    TriageChange,
)
from incidents.api.throttling import UPLOADS
from incidents.models import Incident
from incidents.runs import services
from incidents.runs.forms import BundleUploadForm
from incidents.triage.listing import IncidentFilters, incident_page
from incidents.triage.services import comment_add, triage_update

router = Router(tags=["incidents"])

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
                            "description": "The job's logs: .tar, .tar.gz/.tgz (or .tar.bz2, "
                            ".tar.xz, .tar.zst), .zip, or one .log/.txt/.gz file.",
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
The latest analysis run and the incident's triage fields. Poll until `status` (the analysis
state) is `done` or `failed`: `report` is the full analysis once done, `error` says why it
failed. `triage_status` is where people are with it."""

FIELD_ERRORS = {**COMMON_ERRORS, 404: ApiError, 422: ApiError}
READ_ERRORS = {**COMMON_ERRORS, 404: ApiError}


@router.post(
    "/incidents/",
    auth=TOKEN_ONLY,
    throttle=UPLOADS,
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
        429: ApiError,
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
    return Status(201, payloads.links(request, incident))


@router.get(
    "/incidents/",
    auth=LOGIN_OR_TOKEN,
    operation_id="listIncidents",
    summary="List and filter incidents",
    description="The incident list page's filters as query parameters; a comma lists "
    "several values (`triage_status=new,investigating`), as does repeating a parameter. "
    "Newest first unless `sort` says otherwise; follow `next` for the following page.",
    response={200: IncidentList, **COMMON_ERRORS, 422: ApiError},
)
def incident_list(request: HttpRequest, params: Query[IncidentListParams]):
    # `params` documents and type-checks the query; the listing reads request.GET itself
    # so repeated parameters and comma lists mean the same as on the page.
    filters = IncidentFilters.from_params(request.GET)
    page = incident_page(
        filters, page=request.GET.get("page"), per_page=request.GET.get("per_page")
    )
    return payloads.incident_list(request, filters, page)


@router.get(
    "/incidents/INC-{int:number}/",
    auth=LOGIN_OR_TOKEN,
    url_name="incident",
    operation_id="getIncident",
    summary="Analysis status, report and triage",
    description=STATUS_DESCRIPTION,
    response={200: IncidentDetail, **READ_ERRORS},
    exclude_unset=True,
)
def incident_detail(request: HttpRequest, number: int):
    return payloads.incident_detail(request, _incident(number))


@router.patch(
    "/incidents/INC-{int:number}/",
    auth=LOGIN_OR_TOKEN,
    operation_id="updateIncidentTriage",
    summary="Change triage fields",
    description="Changes only the fields sent, and answers the updated incident. A bad "
    "value answers 422 naming the field, and nothing is changed. Each change goes to the "
    "activity log under the caller's name.",
    response={200: IncidentDetail, 403: ApiError, **FIELD_ERRORS},
    exclude_unset=True,
)
def incident_update(request: HttpRequest, number: int, payload: TriageChange):
    incident = _incident(number)
    triage_update(
        incident=incident, actor=request.user, changes=payload.model_dump(exclude_unset=True)
    )
    return payloads.incident_detail(request, incident)


@router.get(
    "/incidents/{int:number}/",
    auth=LOGIN_OR_TOKEN,
    url_name="incident-by-number",
    operation_id="getIncidentByNumber",
    summary="Analysis status, report and triage, by plain number",
    description="The same answer as `GET /api/incidents/INC-<n>/`, for clients that keep "
    "the number only.",
    response={200: IncidentDetail, **READ_ERRORS},
    exclude_unset=True,
)
def incident_detail_by_number(request: HttpRequest, number: int):
    return payloads.incident_detail(request, _incident(number))


@router.get(
    "/incidents/INC-{int:number}/comments/",
    auth=LOGIN_OR_TOKEN,
    url_name="incident-comments",
    operation_id="listIncidentComments",
    summary="The incident's comments",
    description="Oldest first, each with its Markdown and the sanitised HTML.",
    response={200: list[CommentOut], **READ_ERRORS},
)
def comment_list(request: HttpRequest, number: int):
    return [payloads.comment(item) for item in _incident(number).comments.all()]


@router.post(
    "/incidents/INC-{int:number}/comments/",
    auth=LOGIN_OR_TOKEN,
    operation_id="addIncidentComment",
    summary="Add a comment",
    description="Markdown, signed with the caller's user name; comments are never edited.",
    response={201: CommentOut, 403: ApiError, **FIELD_ERRORS},
)
def comment_create(request: HttpRequest, number: int, payload: CommentIn):
    item = comment_add(incident=_incident(number), author=request.user, body=payload.body)
    return Status(201, payloads.comment(item))


def _incident(number: int) -> Incident:
    return get_object_or_404(Incident.objects.select_related("bundle"), pk=number)
