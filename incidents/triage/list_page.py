"""What the incident list page shows around its rows: the filter bar's choices, the quick
links, sortable headers and the pager, each a link built from the current filters, so
every view of the list is a URL people can paste."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from analyzers.library.matching import taxonomy
from incidents.runs.models import RunState
from incidents.triage.listing import DEFAULT_SORT, NO_OWNER, IncidentFilters, IncidentPage
from incidents.triage.states import OPEN_STATES, TriageStatus

# Column -> its `sort` key; columns left out (culprit ranks, tags, …) do not sort.
SORTABLE_COLUMNS = {
    "id": "id",
    "title": "title",
    "category": "category",
    "triage_status": "triage_status",
    "owner": "owner",
    "uploaded": "created",
}
# Sorting a column the first time: dates newest first, text A to Z.
FIRST_DESCENDING = {"created", "id"}


@dataclass(frozen=True)
class SortLink:
    query: str
    direction: str  # "asc", "desc" or "" when the list is not sorted by this column


@dataclass(frozen=True)
class QuickLink:
    label: str
    query: str
    active: bool


def sort_links(filters: IncidentFilters) -> dict[str, SortLink]:
    """A header link per sortable column; clicking the sorted column reverses it."""
    current = filters.sort.lstrip("-")
    descending = filters.sort.startswith("-")
    links = {}
    for column, key in SORTABLE_COLUMNS.items():
        if key == current:
            direction = "desc" if descending else "asc"
            target = key if descending else f"-{key}"
        else:
            direction = ""
            target = f"-{key}" if key in FIRST_DESCENDING else key
        sort = None if target == DEFAULT_SORT else target
        links[column] = SortLink(query=filters.query_string(sort=sort), direction=direction)
    return links


def quick_links(filters: IncidentFilters, user: AbstractBaseUser) -> list[QuickLink]:
    """The views people open every day; one is marked when the list shows exactly it."""
    views = [
        (_("All"), IncidentFilters()),
        (_("New"), IncidentFilters(triage_status=(TriageStatus.NEW.value,))),
        (_("Open"), IncidentFilters(triage_status=tuple(s.value for s in OPEN_STATES))),
        (_("Mine"), IncidentFilters(owner=(user.get_username(),))),
    ]
    shown = filters.as_params()
    shown.pop("sort", None)
    return [
        QuickLink(label=str(label), query=view.query_string(), active=view.as_params() == shown)
        for label, view in views
    ]


def filter_choices() -> dict[str, Any]:
    """The options of the filter bar's selects and the triage panel's."""
    user_model = get_user_model()
    users = user_model.objects.filter(is_active=True).order_by(user_model.USERNAME_FIELD)
    return {
        "category_choices": sorted(taxonomy()),
        "triage_choices": TriageStatus.choices,
        "status_choices": RunState.choices,
        "status_values": RunState.values,
        "owner_choices": [u.get_username() for u in users],
        "no_owner": NO_OWNER,
    }


def pager_links(filters: IncidentFilters, page: IncidentPage) -> dict[str, str]:
    """Previous/next page queries that keep every filter and the sort."""
    links = {}
    if page.has_previous:
        previous = page.page - 1
        links["previous"] = filters.query_string(page=previous if previous > 1 else None)
    if page.has_next:
        links["next"] = filters.query_string(page=page.page + 1)
    return links


def canonical_query(params: Mapping[str, Any], filters: IncidentFilters, page: int) -> str | None:
    """The tidy query of a submitted filter form (no empty fields, a comma list instead of
    repeated names), or None when the URL is tidy already. The filter bar's GET form sends
    every field; redirecting to the tidy URL keeps permalinks short and stable."""
    lists = params.lists() if hasattr(params, "lists") else ((k, [v]) for k, v in params.items())
    untidy = any(len(values) > 1 or not str(values[0]).strip() for _name, values in lists)
    if not untidy:
        return None
    return filters.query_string(page=page if page > 1 else None)
