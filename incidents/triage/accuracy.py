"""How often the analyzer's category agrees with the one people settle on: the figures of
the library's accuracy page, read from the root-cause verdicts.

Only each incident's latest verdict counts: a person who corrects a category replaces
their earlier answer instead of adding a second one, so every incident weighs once. The
over-time figures put that latest verdict in the week or month it was set. Pure queries:
no request, works the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from analyzers.library.matching import taxonomy
from analyzers.scoring import CONFIDENT
from incidents.triage.models import RootCauseVerdict
from incidents.triage.paging import Page

PERIODS = ("month", "week")
DEFAULT_PERIOD = "month"
NO_RESULT = "none"  # the filter value for verdicts set while no analysis had finished
PER_PAGE = 25
AGREES = Q(analyzer_category=F("person_category"))


class AccuracyInvalid(ValueError):
    """A query parameter the page cannot use; names the parameter."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class AccuracyFilters:
    """The page's query parameters: the disagreement list's filters and the time bucket."""

    category: str = ""  # what people settled on
    analyzer: str = ""  # what the analyzer said; NO_RESULT for none
    period: str = DEFAULT_PERIOD

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> AccuracyFilters:
        labels = taxonomy()
        category = str(params.get("category") or "").strip()
        if category and category not in labels:
            raise AccuracyInvalid("category", _not_one_of(category, labels))
        analyzer = str(params.get("analyzer") or "").strip()
        if analyzer and analyzer not in labels | {NO_RESULT}:
            raise AccuracyInvalid("analyzer", _not_one_of(analyzer, labels | {NO_RESULT}))
        period = str(params.get("period") or DEFAULT_PERIOD).strip()
        if period not in PERIODS:
            raise AccuracyInvalid("period", _not_one_of(period, PERIODS))
        return cls(category=category, analyzer=analyzer, period=period)

    @property
    def is_filtered(self) -> bool:
        return bool(self.category or self.analyzer)


@dataclass(frozen=True)
class Agreement:
    """How many latest verdicts, and how many of them the analyzer got right."""

    total: int = 0
    agreed: int = 0

    @property
    def percent(self) -> float | None:
        return 100 * self.agreed / self.total if self.total else None

    @property
    def missed(self) -> int:
        return self.total - self.agreed


@dataclass(frozen=True)
class CategoryRow:
    """One category's line: `agreement.total` incidents carry it on one side."""

    category: str  # "" on the analyzer's side when no analysis had finished
    agreement: Agreement

    @property
    def param(self) -> str:
        """The category as the disagreement list's filter value."""
        return self.category or NO_RESULT


@dataclass(frozen=True)
class Confusion:
    """People settled on `person` where the analyzer had said `analyzer`, `count` times."""

    person: str
    analyzer: str  # "" when no analysis had finished
    count: int

    @property
    def analyzer_param(self) -> str:
        return self.analyzer or NO_RESULT


@dataclass(frozen=True)
class Calibration:
    """Agreement split at the analyzer's own confidence bar (analyzers.scoring.CONFIDENT)."""

    threshold: float
    confident: Agreement
    unsure: Agreement
    unknown: Agreement  # verdicts recorded without a confidence


@dataclass(frozen=True)
class AccuracySummary:
    overall: Agreement
    verdicts_all: int  # every verdict ever recorded, corrections included
    by_person: list[CategoryRow]  # per category people settled on, most incidents first
    by_analyzer: list[CategoryRow]  # per category the analyzer said, most incidents first
    confusions: list[Confusion]  # most frequent first
    calibration: Calibration

    @property
    def is_empty(self) -> bool:
        return self.overall.total == 0


@dataclass(frozen=True)
class Disagreement:
    incident_number: int
    incident_title: str
    analyzer_category: str
    analyzer_confidence: float | None
    person_category: str
    actor_name: str
    at: dt.datetime

    @property
    def incident_id(self) -> str:
        return f"INC-{self.incident_number}"


DisagreementPage = Page[Disagreement]


# ------------------------------------------------------------------ queries


def latest_verdicts() -> QuerySet[RootCauseVerdict]:
    """Each incident's newest verdict (by time, then by id for two in the same instant).
    An incident whose category people have since cleared has no settled answer to count."""
    newest = (
        RootCauseVerdict.objects.filter(incident=OuterRef("incident"))
        .order_by("-at", "-pk")
        .values("pk")[:1]
    )
    settled = RootCauseVerdict.objects.exclude(incident__root_cause_category="")
    return settled.filter(pk=Subquery(newest))


def accuracy_summary() -> AccuracySummary:
    """The per-category, confusion and calibration figures over the latest verdicts."""
    pairs = Counter(
        {
            (row["person_category"], row["analyzer_category"]): row["n"]
            for row in _grouped(latest_verdicts(), "person_category", "analyzer_category")
        }
    )
    return AccuracySummary(
        overall=_agreement(pairs.items()),
        verdicts_all=RootCauseVerdict.objects.count(),
        by_person=_category_rows(pairs, side=0),
        by_analyzer=_category_rows(pairs, side=1),
        confusions=_confusions(pairs),
        calibration=calibration(),
    )


def calibration(threshold: float = CONFIDENT) -> Calibration:
    sure = Q(analyzer_confidence__gte=threshold)
    unsure = Q(analyzer_confidence__lt=threshold)
    unknown = Q(analyzer_confidence__isnull=True)
    parts = {"confident": sure, "unsure": unsure, "unknown": unknown}
    counts = latest_verdicts().aggregate(
        **{f"{name}_total": Count("pk", filter=part) for name, part in parts.items()},
        **{f"{name}_agreed": Count("pk", filter=part & AGREES) for name, part in parts.items()},
    )
    made = {
        name: Agreement(total=counts[f"{name}_total"], agreed=counts[f"{name}_agreed"])
        for name in parts
    }
    return Calibration(threshold=threshold, **made)


def disagreements(
    filters: AccuracyFilters, *, page: int = 1, per_page: int = PER_PAGE
) -> DisagreementPage:
    """Incidents whose latest verdict differs from the analyzer, newest first; a page past
    the end is empty."""
    rows = latest_verdicts().exclude(AGREES)
    if filters.category:
        rows = rows.filter(person_category=filters.category)
    if filters.analyzer:
        analyzer = "" if filters.analyzer == NO_RESULT else filters.analyzer
        rows = rows.filter(analyzer_category=analyzer)
    count = rows.count()
    page = max(1, page)
    start = (page - 1) * per_page
    window = rows.select_related("incident").order_by("-at", "-pk")[start : start + per_page]
    items = [_disagreement(verdict) for verdict in window]
    return DisagreementPage(items=items, count=count, page=page, per_page=per_page)


# ------------------------------------------------------------------ helpers


def _grouped(rows: QuerySet, *names: str) -> Iterable[dict[str, Any]]:
    return rows.order_by().values(*names).annotate(n=Count("pk"))


def _agreement(pairs: Iterable[tuple[tuple[str, str], int]]) -> Agreement:
    total = agreed = 0
    for (person, analyzer), n in pairs:
        total += n
        agreed += n if person == analyzer else 0
    return Agreement(total=total, agreed=agreed)


def _category_rows(pairs: Counter[tuple[str, str]], *, side: int) -> list[CategoryRow]:
    """Group the pairs by the person's (side 0) or the analyzer's (side 1) category."""
    grouped: dict[str, list[tuple[tuple[str, str], int]]] = {}
    for pair, n in pairs.items():
        grouped.setdefault(pair[side], []).append((pair, n))
    rows = [
        CategoryRow(category=label, agreement=_agreement(got)) for label, got in grouped.items()
    ]
    return sorted(rows, key=lambda row: (-row.agreement.total, row.category))


def _confusions(pairs: Counter[tuple[str, str]]) -> list[Confusion]:
    mixed = [
        Confusion(person=person, analyzer=analyzer, count=n)
        for (person, analyzer), n in pairs.items()
        if person != analyzer
    ]
    return sorted(mixed, key=lambda c: (-c.count, c.person, c.analyzer))


def _disagreement(verdict: RootCauseVerdict) -> Disagreement:
    return Disagreement(
        incident_number=verdict.incident_id,
        incident_title=verdict.incident.title,
        analyzer_category=verdict.analyzer_category,
        analyzer_confidence=verdict.analyzer_confidence,
        person_category=verdict.person_category,
        actor_name=verdict.actor_name,
        at=verdict.at,
    )


def _not_one_of(value: str, allowed: Iterable[str]) -> str:
    return f"{value!r} is not one of {', '.join(sorted(allowed))}"
