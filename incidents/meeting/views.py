"""The meeting page (`/meeting/`): thin, the place and the screen come from selectors."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from incidents.content_policy import allow_plotly
from incidents.meeting import selectors
from incidents.meeting.screen import meeting_screen, owner_choices, status_choices
from incidents.models import Incident
from incidents.triage.listing import FilterInvalid

TEMPLATE = "meeting/meeting.html"


@login_required
@require_GET
@allow_plotly
def meeting(request: HttpRequest) -> HttpResponse:
    try:
        filters = selectors.meeting_filters(request.GET)
        at = selectors.meeting_at(request.GET.get("at"))
    except FilterInvalid as invalid:
        return render(request, TEMPLATE, {"invalid": invalid}, status=400)
    place = selectors.meeting_place(filters, at)
    context = {
        "place": place,
        "filters": filters,
        "is_filtered": filters.is_filtered,
        "list_url": selectors.list_url(filters),
        "oldest_first": filters.sort == selectors.MEETING_SORT,
    }
    if place.current is not None:
        incident = Incident.objects.select_related("owner").get(pk=place.current)
        context |= {
            "screen": meeting_screen(incident),
            "here_url": selectors.meeting_url(filters, place.current),
            "statuses": status_choices(),
            "owners": owner_choices(),
        }
        if place.previous is not None:
            context["previous_url"] = selectors.meeting_url(filters, place.previous)
        if place.next is not None:
            context["next_url"] = selectors.meeting_url(filters, place.next)
    return render(request, TEMPLATE, context)
