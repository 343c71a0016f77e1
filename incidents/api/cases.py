"""JSON API of the case library: `GET /api/cases/?q=&category=&code=&operator=&hardware=`."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from incidents.accounts.tokens import login_or_token
from incidents.library import selectors as case_selectors
from incidents.library.models import CASE_TEXT_FIELDS, Case
from incidents.library.query import MAX_PER_PAGE, PER_PAGE, CaseFilters, case_search, hit_dict
from incidents.library.views import page_number

CASE_FIELDS = (*CASE_TEXT_FIELDS, "source")


def _per_page(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("limit", PER_PAGE)), MAX_PER_PAGE))
    except ValueError:
        return PER_PAGE


@require_GET
@login_or_token
def case_list(request: HttpRequest) -> JsonResponse:
    result = case_search(
        text=request.GET.get("q", ""),
        filters=CaseFilters.from_params(request.GET),
        page=page_number(request),
        per_page=_per_page(request),
    )
    return JsonResponse(
        {
            "count": result.total,
            "count_is_capped": result.capped,
            "page": result.page,
            "per_page": result.per_page,
            "has_next": result.has_next,
            "corrections": result.corrections,
            "results": [hit_dict(hit) for hit in result.hits],
        },
        json_dumps_params={"ensure_ascii": False},
    )


@require_GET
@login_or_token
def case_detail(request: HttpRequest, slug: str) -> JsonResponse:
    case = get_object_or_404(Case.objects.published(), slug=slug)
    data = {"id": case.slug, "url": request.build_absolute_uri(case.get_absolute_url())}
    data |= {name: getattr(case, name) for name in CASE_FIELDS}
    data["translations"] = case.translations  # a seeded case's Chinese: {"zh": {...}}
    data["incidents"] = [
        {"id": link.incident.short_id, "score": link.score, "source": link.source}
        for link in case_selectors.linked_incidents(case)
    ]
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})
