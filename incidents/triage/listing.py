"""The incident list's filters, shared by the page, the meeting view and the API: every
filter is a query parameter, so a filtered list is a link; a comma lists several values."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlencode

from django.db.models import Q, QuerySet

from incidents.runs.models import Incident, RunState
from incidents.triage.paging import Page
from incidents.triage.states import TriageStatus

PER_PAGE = 50
MAX_PER_PAGE = 200
NO_OWNER = "none"

# sort parameter -> model ordering; a leading '-' sorts descending. Ties: newest first.
SORTS = {
    "created": "created_at",
    "updated": "updated_at",
    "id": "pk",
    "category": "category",
    "triage_status": "triage_status",
    "status": "status",
    "owner": "owner__username",
    "title": "title",
}
DEFAULT_SORT = "-created"


class FilterInvalid(ValueError):
    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class IncidentFilters:
    category: tuple[str, ...] = ()
    triage_status: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    owner: tuple[str, ...] = ()
    tag: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    ticket: tuple[str, ...] = ()
    since: dt.date | None = None
    until: dt.date | None = None
    q: str = ""
    sort: str = DEFAULT_SORT
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> IncidentFilters:
        """Read query parameters; an unknown value raises FilterInvalid naming the field."""
        triage = _listed(params, "triage_status")
        _only(triage, TriageStatus.values, "triage_status")
        status = _listed(params, "status")
        _only(status, RunState.values, "status")
        sort = (params.get("sort") or DEFAULT_SORT).strip()
        if sort.lstrip("-") not in SORTS:
            raise FilterInvalid("sort", f"{sort!r} is not one of {', '.join(SORTS)}")
        return cls(
            category=_listed(params, "category"),
            triage_status=triage,
            status=status,
            owner=_listed(params, "owner"),
            tag=tuple(t.lower() for t in _listed(params, "tag")),
            code=_listed(params, "code"),
            ticket=_listed(params, "ticket"),
            since=_date(params, "since"),
            until=_date(params, "until"),
            q=" ".join(str(params.get("q") or "").split())[:200],
            sort=sort,
        )

    def as_params(self) -> dict[str, str]:
        """The filters as query parameters (empty ones left out), to build links."""
        out: dict[str, str] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if spec.name == "extra" or value in ((), None, ""):
                continue
            if spec.name == "sort" and value == DEFAULT_SORT:
                continue
            out[spec.name] = ",".join(value) if isinstance(value, tuple) else str(value)
        return out

    def query_string(self, **overrides: Any) -> str:
        """The filters (and `overrides`, None leaving one out) as a query string; commas
        stay commas, so a link reads `?triage_status=new,investigating`."""
        params = self.as_params() | {k: str(v) for k, v in overrides.items() if v is not None}
        for name, value in overrides.items():
            if value is None:
                params.pop(name, None)
        return urlencode(params, safe=",")

    @property
    def is_filtered(self) -> bool:
        return bool(set(self.as_params()) - {"sort"})


def incidents_filtered(filters: IncidentFilters) -> QuerySet[Incident]:
    rows = Incident.objects.select_related("owner", "created_by", "bundle", "duplicate_of")
    rows = rows.prefetch_related("tags", "tickets")
    for name in ("category", "triage_status", "status"):
        if getattr(filters, name):
            rows = rows.filter(**{f"{name}__in": getattr(filters, name)})
    if filters.owner:
        rows = rows.filter(_owner_q(filters.owner))
    if filters.tag:
        rows = rows.filter(pk__in=Incident.objects.filter(tags__name__in=filters.tag).values("pk"))
    if filters.code:
        rows = rows.filter(_any_q("codes__icontains", [f" {code} " for code in filters.code]))
    if filters.ticket:
        rows = rows.filter(pk__in=_ticket_matches(filters.ticket))
    if filters.since:
        rows = rows.filter(created_at__date__gte=filters.since)
    if filters.until:
        rows = rows.filter(created_at__date__lte=filters.until)
    for word in filters.q.split():
        rows = rows.filter(_text_q(word))
    return rows.order_by(*_ordering(filters.sort))


IncidentPage = Page[Incident]


def incident_page(
    filters: IncidentFilters, *, page: Any = 1, per_page: Any = PER_PAGE
) -> IncidentPage:
    """One page of the filtered list; a page past the end is empty, not an error."""
    number = _positive(page, "page", default=1)
    size = min(_positive(per_page, "per_page", default=PER_PAGE), MAX_PER_PAGE)
    rows = incidents_filtered(filters)
    count = rows.count()
    start = (number - 1) * size
    # Past the end nothing is asked of the database: a page number whose offset does not
    # fit its 64-bit OFFSET (`?page=99999999999999999999`) would fail there.
    items = list(rows[start : start + size]) if start < count else []
    return IncidentPage(items=items, count=count, page=number, per_page=size)


def incident_row(incident: Incident) -> dict[str, Any]:
    """An incident as the list shows it; the API answers the same fields."""
    return {
        "id": incident.short_id,
        "number": incident.pk,
        "title": incident.title,
        "status": incident.status,
        "triage_status": incident.triage_status,
        "category": incident.category or None,
        "culprit_ranks": list(incident.culprit_ranks or []),
        "first_error": incident.first_error or None,
        "owner": incident.owner.get_username() if incident.owner else None,
        "tags": [tag.name for tag in incident.tags.all()],
        "tickets": [{"url": t.url, "key": t.key or None} for t in incident.tickets.all()],
        "created_at": incident.created_at.isoformat(),
        "updated_at": incident.updated_at.isoformat(),
        "path": incident.get_absolute_url(),
    }


# ------------------------------------------------------------------ helpers


def _listed(params: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """`a,b` and repeated parameters (`?tag=a&tag=b`) both list several values."""
    raw = params.getlist(name) if hasattr(params, "getlist") else [params.get(name) or ""]
    values: list[str] = []
    for item in raw:
        for value in str(item or "").split(","):
            value = value.strip()
            if value and value not in values:
                values.append(value)
    return tuple(values)


def _only(values: tuple[str, ...], allowed: list[str], name: str) -> None:
    for value in values:
        if value not in allowed:
            raise FilterInvalid(name, f"{value!r} is not one of {', '.join(allowed)}")


def _date(params: Mapping[str, Any], name: str) -> dt.date | None:
    raw = str(params.get(name) or "").strip()
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw[:10])
    except ValueError:
        raise FilterInvalid(name, f"{raw!r} is not a date (YYYY-MM-DD)") from None


def _positive(value: Any, name: str, *, default: int) -> int:
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise FilterInvalid(name, f"{value!r} is not a whole number") from None
    if number < 1:
        raise FilterInvalid(name, "must be 1 or more")
    return number


def _owner_q(owners: tuple[str, ...]) -> Q:
    names = [o for o in owners if o.lower() != NO_OWNER]
    query = Q(owner__username__in=names) if names else Q(pk__in=[])
    if len(names) < len(owners):
        query |= Q(owner__isnull=True)
    return query


def _any_q(lookup: str, values: list[str]) -> Q:
    query = Q()
    for value in values:
        query |= Q(**{lookup: value})
    return query


def _ticket_matches(tickets: tuple[str, ...]) -> QuerySet:
    query = Q()
    for ticket in tickets:
        query |= Q(tickets__key__iexact=ticket) | Q(tickets__url__icontains=ticket)
    return Incident.objects.filter(query).values("pk")


def _text_q(word: str) -> Q:
    query = Q(title__icontains=word) | Q(first_error__icontains=word)
    query |= Q(codes__icontains=word) | Q(file_names__icontains=word)
    if word.upper().startswith("INC-") and word[4:].isdigit():
        query |= Q(pk=int(word[4:]))
    return query


def _ordering(sort: str) -> list[str]:
    descending = sort.startswith("-")
    column = SORTS[sort.lstrip("-")]
    first = f"-{column}" if descending else column
    return [first, "-created_at", "-pk"] if column != "pk" else [first]
