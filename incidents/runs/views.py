"""Pages: incident list, upload, incident detail with live status."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from incidents.content_policy import allow_plotly
from incidents.models import Activity, Incident
from incidents.runs import services, wording
from incidents.runs.forms import BundleUploadForm, ReanalyzeForm
from incidents.triage import drafts as triage_drafts
from incidents.triage import list_page
from incidents.triage.listing import FilterInvalid, IncidentFilters, incident_page
from incidents.triage.panel import triage_panel

ACTIVITY_SHOWN = 50


def _get_incident(number: int) -> Incident:
    """Every logged-in user may see every incident: this is a team tool."""
    rows = Incident.objects.select_related("bundle", "created_by", "owner", "duplicate_of")
    return get_object_or_404(rows, pk=number)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return redirect("incidents:list")


@login_required
@require_GET
def incident_list(request: HttpRequest) -> HttpResponse:
    """The filtered list; a filter value it cannot read answers 400 naming the field."""
    choices = list_page.filter_choices()
    try:
        filters = IncidentFilters.from_params(request.GET)
        page = incident_page(filters, page=request.GET.get("page"))
    except FilterInvalid as invalid:
        context = {
            "invalid": invalid,
            "filters": IncidentFilters(),
            "quick_links": list_page.quick_links(IncidentFilters(), request.user),
            **choices,
        }
        return render(request, "incidents/list.html", context, status=400)
    tidy = list_page.canonical_query(request.GET, filters, page.page)
    if tidy is not None:
        return redirect(f"{request.path}?{tidy}" if tidy else request.path)
    context = {
        "filters": filters,
        "page": page,
        "sorts": list_page.sort_links(filters),
        "quick_links": list_page.quick_links(filters, request.user),
        "pager": list_page.pager_links(filters, page),
        **choices,
    }
    return render(request, "incidents/list.html", context)


@login_required
def incident_upload(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _render_upload(request, BundleUploadForm())
    form = BundleUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _upload_invalid(request, form)
    incident = services.incident_create(
        upload=form.cleaned_data["bundle"],
        title=form.cleaned_data["title"],
        created_by=request.user,
    )
    if _wants_json(request):
        return JsonResponse(
            {"id": incident.short_id, "url": incident.get_absolute_url()}, status=201
        )
    return redirect(incident)


def _upload_invalid(request: HttpRequest, form: BundleUploadForm) -> HttpResponse:
    status = 413 if form.is_too_large() else 400
    if _wants_json(request):
        return JsonResponse({"error": form.first_error()}, status=status)
    return _render_upload(request, form, status=status)


def _render_upload(request: HttpRequest, form: BundleUploadForm, status: int = 200) -> HttpResponse:
    context = {"form": form, "max_upload": settings.RANKLENS_MAX_UPLOAD_BYTES}
    return render(request, "incidents/upload.html", context, status=status)


@login_required
@require_GET
@allow_plotly
def incident_detail(request: HttpRequest, number: int) -> HttpResponse:
    incident = _get_incident(number)
    run = incident.latest_run()
    report = run.report if run and run.report else None
    patterns = "\n".join(run.checkpoint_patterns) if run else ""
    form = ReanalyzeForm(initial={"checkpoint_patterns": patterns})
    context = {"incident": incident, "run": run, "report": report, "reanalyze_form": form}
    context["activity"] = Activity.objects.about_incident(incident)[:ACTIVITY_SHOWN]
    draft = triage_drafts.take(request, incident)
    context |= triage_panel(incident, request.build_absolute_uri, draft)
    return render(request, "incidents/detail.html", context)


@login_required
@require_GET
def incident_status(request: HttpRequest, number: int) -> JsonResponse:
    run = _get_incident(number).latest_run()
    if run is None:
        return JsonResponse({"status": None, "progress": 0, "step": "", "error": None})
    return JsonResponse(wording.status_texts(run.status_dict(with_report=False)))


@login_required
@require_POST
def incident_reanalyze(request: HttpRequest, number: int) -> HttpResponse:
    incident = _get_incident(number)
    form = ReanalyzeForm(request.POST)
    if not form.is_valid():
        # Nothing is queued; the current run and its report stay as they are.
        messages.error(request, " ".join(form.errors["checkpoint_patterns"]))
        return redirect(incident)
    services.incident_reanalyze(
        incident=incident,
        checkpoint_patterns=form.cleaned_data["checkpoint_patterns"],
        actor=request.user,
    )
    return redirect(incident)
