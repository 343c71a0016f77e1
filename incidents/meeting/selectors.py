"""Where the meeting is in the filtered list: which incident is on screen, its position,
and the incidents before and after it.

The URL names the incident (`?triage_status=new&at=INC-7`), so a refresh or a pasted link
keeps the place. An incident that no longer matches the filters (it was just marked
resolved) gives way to the one that came after it, so the meeting moves on by itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from incidents.triage.listing import (
    DEFAULT_SORT,
    FilterInvalid,
    IncidentFilters,
    incidents_filtered,
)

# Oldest first: the incident that has waited longest is talked about first, and the order
# does not shift while new uploads arrive during the meeting.
MEETING_SORT = "created"
AT_SHAPE = re.compile(r"^(?:INC-)?(\d{1,12})$", re.IGNORECASE)


@dataclass(frozen=True)
class MeetingPlace:
    """The incident on screen among `count` matching ones (all ids are primary keys)."""

    count: int
    index: int | None = None  # 0-based position of `current`
    current: int | None = None
    previous: int | None = None
    next: int | None = None
    asked: int | None = None  # the incident `at` named
    moved: bool = False  # `at` no longer matches: showing the one after where it was

    @property
    def position(self) -> int:
        return (self.index or 0) + 1


def meeting_filters(params: Mapping[str, Any]) -> IncidentFilters:
    """The list's filters; without an explicit `sort`, the meeting's oldest-first order."""
    filters = IncidentFilters.from_params(params)
    if not str(params.get("sort") or "").strip():
        filters = dataclasses.replace(filters, sort=MEETING_SORT)
    return filters


def meeting_at(raw: Any) -> int | None:
    """`at=INC-7` (or `at=7`) as the incident number; empty means the first one."""
    text = str(raw or "").strip()
    if not text:
        return None
    found = AT_SHAPE.match(text)
    if not found:
        raise FilterInvalid("at", f"{text!r} is not an incident id such as INC-7")
    return int(found.group(1))


def meeting_place(filters: IncidentFilters, at: int | None) -> MeetingPlace:
    ids = _ids(filters)
    if not ids:
        return MeetingPlace(count=0, asked=at)
    positions = {pk: i for i, pk in enumerate(ids)}
    if at is None:
        index, moved = 0, False
    elif at in positions:
        index, moved = positions[at], False
    else:
        index, moved = _index_after(filters, positions, at), True
    return MeetingPlace(
        count=len(ids),
        index=index,
        current=ids[index],
        previous=ids[index - 1] if index > 0 else None,
        next=ids[index + 1] if index + 1 < len(ids) else None,
        asked=at,
        moved=moved,
    )


def meeting_params(filters: IncidentFilters) -> dict[str, str]:
    """The filters as the meeting's query parameters (its default order left out)."""
    params = filters.as_params()
    if filters.sort == MEETING_SORT:
        params.pop("sort", None)
    elif filters.sort == DEFAULT_SORT:
        params["sort"] = DEFAULT_SORT  # the list's default is not the meeting's
    return params


def meeting_url(filters: IncidentFilters, number: int | None = None) -> str:
    """The permalink of one screen: the filters, then the incident on it."""
    params = meeting_params(filters)
    if number is not None:
        params["at"] = f"INC-{number}"
    query = urlencode(params)
    return reverse("meeting:view") + (f"?{query}" if query else "")


def list_url(filters: IncidentFilters) -> str:
    """The incident list with the same filters, in the meeting's order."""
    query = urlencode(filters.as_params())
    return reverse("incidents:list") + (f"?{query}" if query else "")


def _ids(filters: IncidentFilters) -> list[int]:
    rows = incidents_filtered(filters).prefetch_related(None).select_related(None)
    return list(rows.values_list("pk", flat=True))


def _index_after(filters: IncidentFilters, positions: dict[int, int], at: int) -> int:
    """The first matching incident after `at` in the same order over every incident; the
    last one when nothing comes after it, the first when `at` does not exist at all."""
    everything = _ids(IncidentFilters(sort=filters.sort))
    try:
        start = everything.index(at)
    except ValueError:
        return 0
    for pk in everything[start + 1 :]:
        if pk in positions:
            return positions[pk]
    return len(positions) - 1
