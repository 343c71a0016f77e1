"""Searching the case library: filters, typo correction, ranking, highlighted results.

Used by the library page and by `GET /api/cases/`; both get a `SearchPage`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.safestring import SafeString

from analyzers.library.data import hardware_fits
from incidents import localized
from incidents.library import search, typos
from incidents.library.highlight import highlight, snippet
from incidents.library.models import Case, CaseKey
from incidents.library.search_text import Query, parse_query

PER_PAGE = 20
MAX_PER_PAGE = 100
# The largest offset asked of the database: far past any library, and with a page's rows
# added still inside the 64-bit OFFSET and LIMIT of SQLite and PostgreSQL, which refuse a
# larger one (`?page=99999999999999999999` is an empty page, not a failed query).
MAX_OFFSET = 2**62


@dataclass(frozen=True, slots=True)
class CaseFilters:
    """Exact filters; empty strings mean "any". Hardware `A2` also keeps cases for any."""

    category: str = ""
    code: str = ""
    operator: str = ""
    hardware: str = ""

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> CaseFilters:
        return cls(**{name: (params.get(name) or "").strip()[:200] for name in _FILTERS})

    @property
    def active(self) -> bool:
        return any(getattr(self, name) for name in _FILTERS)

    def apply(self, cases: QuerySet[Case]) -> QuerySet[Case]:
        if self.category:
            cases = cases.filter(category=self.category)
        for kind, value in ((CaseKey.Kind.CODE, self.code), (CaseKey.Kind.OPERATOR, self.operator)):
            if value:
                keyed = CaseKey.objects.filter(kind=kind, value=value.lower())
                cases = cases.filter(pk__in=keyed.values("case_id"))
        if self.hardware:
            fits = [tag.lower() for tag in hardware_fits(self.hardware)]
            keyed = CaseKey.objects.filter(kind=CaseKey.Kind.HARDWARE, value__in=fits)
            cases = cases.filter(pk__in=keyed.values("case_id"))
        return cases


_FILTERS = ("category", "code", "operator", "hardware")


@dataclass(frozen=True, slots=True)
class CaseHit:
    case: Case
    exact: bool  # a code or operator of the case equals a query word
    title_html: SafeString
    snippet_html: SafeString


@dataclass(frozen=True, slots=True)
class SearchPage:
    text: str
    hits: list[CaseHit]
    total: int
    page: int
    per_page: int
    corrections: dict[str, str] = field(default_factory=dict)

    @property
    def capped(self) -> bool:
        """The total stopped counting at search.COUNT_CAP ("10000+ cases")."""
        return self.total >= search.COUNT_CAP

    @property
    def has_next(self) -> bool:
        return self.page * self.per_page < self.total

    @property
    def has_previous(self) -> bool:
        return self.page > 1


def case_search(
    *, text: str, filters: CaseFilters = CaseFilters(), page: int = 1, per_page: int = PER_PAGE
) -> SearchPage:
    """Cases matching `text` and the filters, best first: exact code/operator hits, then
    full-text relevance. Without text, the filtered library in title order. Drafts are
    never listed (see Case.is_draft)."""
    page, per_page = max(1, page), max(1, min(per_page, MAX_PER_PAGE))
    query = _corrected(parse_query(text))
    base = filters.apply(Case.objects.published())
    offset = min((page - 1) * per_page, MAX_OFFSET)
    if query.empty:
        base = search.without(base, query.excluded_terms())
        cases = list(base.order_by("title", "pk")[offset : offset + per_page])
        hits = [_hit(c, query, exact=False) for c in cases]
        return SearchPage(text, hits, base.count(), page, per_page)
    found = search.ranked(query, base, filtered=filters.active, limit=per_page, offset=offset)
    by_id = Case.objects.in_bulk(found.ids)
    hits = [_hit(by_id[pk], query, pk in found.key_hits) for pk in found.ids if pk in by_id]
    return SearchPage(text, hits, found.total, page, per_page, query.corrections)


def _corrected(query: Query) -> Query:
    words = [t.text for t in query.terms if t.correctable]
    return query.corrected(typos.corrections(words))


def _hit(case: Case, query: Query, exact: bool) -> CaseHit:
    """A result highlighted in the page's language (a seeded case's Chinese on a Chinese
    page, so a case found by its Chinese title shows that title)."""
    words = query.positive_texts()
    title, symptoms, root_cause, fix = (
        localized.text(case, name) for name in ("title", "symptoms", "root_cause", "fix")
    )
    texts = [*symptoms, root_cause, fix, *case.codes, *case.operators]
    return CaseHit(case, exact, highlight(title, words), snippet(texts, words))


def hit_dict(hit: CaseHit) -> dict:
    """A result as the API returns it."""
    case = hit.case
    return {
        "id": case.slug,
        "title": case.title,
        "category": case.category,
        "codes": case.codes,
        "operators": case.operators,
        "hardware": case.hardware,
        "source": case.source,
        "exact": hit.exact,
        "url": case.get_absolute_url(),
        "highlight": {"title": str(hit.title_html), "snippet": str(hit.snippet_html)},
    }
