"""Case library pages: search, a case's permalink, editing, promotion to a draft and
publishing it, the draft list, the tree reference."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from incidents.library import promotion
from incidents.library import selectors as case_selectors
from incidents.library import services as case_services
from incidents.library.accuracy_chart import agreement_chart
from incidents.library.forms import CaseForm
from incidents.library.models import CATEGORY_CHOICES, HARDWARE_CHOICES, Case
from incidents.library.query import CaseFilters, case_search
from incidents.models import Activity, Incident
from incidents.runs.views import ACTIVITY_SHOWN
from incidents.tree.drawing import build_tree_view
from incidents.triage import accuracy, accuracy_over_time


def page_number(request: HttpRequest) -> int:
    try:
        return max(1, int(request.GET.get("page", "1")))
    except ValueError:
        return 1


@login_required
@require_GET
def library_search(request: HttpRequest) -> HttpResponse:
    filters = CaseFilters.from_params(request.GET)
    text = request.GET.get("q", "").strip()
    result = case_search(text=text, filters=filters, page=page_number(request))
    context = {
        "result": result,
        "filters": filters,
        "categories": CATEGORY_CHOICES,
        "hardware_choices": HARDWARE_CHOICES,
    }
    return render(request, "library/search.html", context)


@login_required
@require_GET
def case_detail(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(Case, slug=slug)
    context = {
        "case": case,
        "links": case_selectors.linked_incidents(case),
        "tree_nodes": case_selectors.tree_nodes_linking(case.slug),
        "activity": Activity.objects.about_case(case)[:ACTIVITY_SHOWN],
    }
    return render(request, "library/case.html", context)


@login_required
def case_edit(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(Case, slug=slug)
    if case.is_seeded:
        messages.info(request, gettext("Seeded cases are edited in analyzers/knowledge/cases/."))
        return redirect(case)
    form = CaseForm(request.POST or None, instance=case)
    if request.method == "POST" and form.is_valid():
        case_services.case_update(form=form, user=request.user)
        messages.success(request, gettext("Case saved."))
        return redirect(case)
    return render(request, "library/case_form.html", {"case": case, "form": form})


@login_required
@require_GET
def library_accuracy(request: HttpRequest) -> HttpResponse:
    """Where the analyzer and people agree on the root-cause category, and where not."""
    status, error = 200, None
    try:
        filters = accuracy.AccuracyFilters.from_params(request.GET)
    except accuracy.AccuracyInvalid as invalid:
        status, error, filters = 400, invalid, accuracy.AccuracyFilters()
    over_time = accuracy_over_time.agreement_over_time(filters.period)
    context = {
        "summary": accuracy.accuracy_summary(),
        "over_time": over_time,
        "chart": agreement_chart(over_time.rows),
        "disagreements": accuracy.disagreements(filters, page=page_number(request)),
        "filters": filters,
        "error": error,
        "categories": CATEGORY_CHOICES,
        "no_result": accuracy.NO_RESULT,
    }
    return render(request, "library/accuracy.html", context, status=status)


@login_required
@require_GET
def library_tree(request: HttpRequest) -> HttpResponse:
    context = {"tree": build_tree_view(), "anchor": "node-"}
    return render(request, "library/tree.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def incident_promote(request: HttpRequest, number: int) -> HttpResponse:
    """GET: the case form prefilled from the report (nothing is stored). POST: save it as
    a draft case linked to the incident."""
    incident = get_object_or_404(Incident, pk=number)
    existing = case_selectors.promoted_case(incident)
    if existing is not None:
        already = gettext("%(incident)s was already promoted to this case.")
        messages.info(request, already % {"incident": incident.short_id})
        return redirect(existing)
    try:
        initial = promotion.promotion_values(incident)
    except promotion.NotPromotable as error:
        messages.error(request, str(error))
        return redirect(incident)
    form = CaseForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        case = promotion.case_promote(
            incident=incident, user=request.user, values=form.cleaned_data
        )
        messages.success(
            request, gettext("Draft saved. Publish it to add it to search and matching.")
        )
        return redirect(case)
    return render(request, "library/promote.html", {"incident": incident, "form": form})


@login_required
@require_POST
def case_publish(request: HttpRequest, slug: str) -> HttpResponse:
    case = get_object_or_404(Case, slug=slug)
    if promotion.case_publish(case=case, user=request.user):
        messages.success(request, gettext("Case published: search and matching now include it."))
    else:
        messages.info(request, gettext("This case was already published."))
    return redirect(case)


@login_required
@require_GET
def library_drafts(request: HttpRequest) -> HttpResponse:
    return render(request, "library/drafts.html", {"drafts": case_selectors.drafts()})
