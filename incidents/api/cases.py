"""The case library for CI jobs and scripts: search known failures, read one case."""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema

from incidents.api.auth import LOGIN_OR_TOKEN
from incidents.api.schemas import COMMON_ERRORS, ApiError, CaseDetail, CaseList
from incidents.library import selectors as case_selectors
from incidents.library.models import CASE_TEXT_FIELDS, Case
from incidents.library.query import MAX_PER_PAGE, PER_PAGE, CaseFilters, case_search, hit_dict

router = Router(tags=["cases"], auth=LOGIN_OR_TOKEN)

CASE_FIELDS = (*CASE_TEXT_FIELDS, "source")
_FILTER_NAMES = ("category", "code", "operator", "hardware")


class CaseQuery(Schema):
    """The search form's fields; empty means "any"."""

    q: str = Field("", description="Words, error codes or operator names; typos are fixed.")
    category: str = Field("", description="Failure category, e.g. `oom`, `hccl`.")
    code: str = Field("", description="An error code, e.g. `507014`.")
    operator: str = Field("", description="An operator name.")
    hardware: str = Field("", description="`A2`, `A3`…; cases for any hardware match too.")
    page: int = Field(1, description="1-based page; values below 1 mean 1.")
    limit: int = Field(
        PER_PAGE, description=f"Results per page, 1–{MAX_PER_PAGE} (clamped into that range)."
    )


@router.get(
    "/cases/",
    url_name="cases",
    operation_id="searchCases",
    summary="Search the case library",
    description="Full-text search over known failure cases with exact filters, best first.",
    response={200: CaseList, **COMMON_ERRORS, 422: ApiError},
)
def case_list(request: HttpRequest, query: Query[CaseQuery]):
    filters = CaseFilters.from_params({name: getattr(query, name) for name in _FILTER_NAMES})
    result = case_search(
        text=query.q,
        filters=filters,
        page=max(1, query.page),
        per_page=max(1, min(query.limit, MAX_PER_PAGE)),
    )
    return {
        "count": result.total,
        "count_is_capped": result.capped,
        "page": result.page,
        "per_page": result.per_page,
        "has_next": result.has_next,
        "corrections": result.corrections,
        "results": [hit_dict(hit) for hit in result.hits],
    }


@router.get(
    "/cases/{slug:slug}/",
    url_name="case",
    operation_id="getCase",
    summary="One case",
    description="A known failure: symptoms, root cause, fix, how to verify, and the "
    "incidents it explains, newest first.",
    response={200: CaseDetail, **COMMON_ERRORS, 404: ApiError},
)
def case_detail(request: HttpRequest, slug: str):
    case = get_object_or_404(Case.objects.published(), slug=slug)
    data = {"id": case.slug, "url": request.build_absolute_uri(case.get_absolute_url())}
    data |= {name: getattr(case, name) for name in CASE_FIELDS}
    data["translations"] = case.translations  # a seeded case's Chinese: {"zh": {...}}
    data["incidents"] = [
        {"id": link.incident.short_id, "score": link.score, "source": link.source}
        for link in case_selectors.linked_incidents(case)
    ]
    return data
