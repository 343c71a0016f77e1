"""Full-text search over the case library, on PostgreSQL or SQLite.

PostgreSQL: a stored `tsvector` per case (GIN-indexed), written here when a case is saved or
bulk-loaded (no trigger), queried word by word with `websearch_to_tsquery`, relevance by `ts_rank`.
SQLite: an FTS5 table `incidents_case_fts` (rowid = case id), relevance by `bm25`.
Both index the same documents (incidents.library.search_text), drafts left out, and order
results the same way: a case holding any query word matches; the weight of the words it holds
first (incidents.library.coverage: rare words weigh most, so a pasted error line finds its
case), then cases whose code or operator equals a query token, then text relevance.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import OperationalError, connection
from django.db.models import Count, F, QuerySet, Value, Window
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from analyzers.library.category_terms import category_terms
from incidents.library import coverage, typos
from incidents.library.models import Case, CaseKey, SearchIndexFormat
from incidents.library.search_text import (
    Document,
    Query,
    Term,
    case_document,
    fts5_keys,
    fts5_term,
    websearch_term,
)

log = logging.getLogger(__name__)

FTS_TABLE = "incidents_case_fts"
BATCH = 500
COUNT_CAP = 10_000  # totals above are shown as "10000+"
LIST_FIELDS = (
    "symptoms",
    "signatures",
    "codes",
    "operators",
    "hardware",
    "verify",
    "references",
    "tags",
)


@dataclass(frozen=True, slots=True)
class Ranked:
    """One page of matching case ids, best first, and how many match in all."""

    ids: list[int]
    key_hits: frozenset[int]
    total: int


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


# ------------------------------------------------------------------------------ writing


def document_of(case: Case) -> Document:
    values = {name: list(getattr(case, name) or ()) for name in LIST_FIELDS}
    values.update(
        title=case.title,
        root_cause=case.root_cause,
        fix=case.fix,
        category=case.category,
        translations=case.translations,
        category_terms=category_terms().get(case.category, ()),
    )
    return case_document(values)


def index_cases(cases: Sequence[Case]) -> None:
    """Bring the search index, the filter keys and the vocabulary up to date for `cases`.

    Drafts stay out of the index (and their words out of the typo vocabulary) until they
    are published, so no search finds them, whatever its filters.
    """
    cases = [c for c in cases if c.pk is not None]
    _unindex([c.pk for c in cases if c.is_draft])
    cases = [c for c in cases if not c.is_draft]
    for start in range(0, len(cases), BATCH):
        batch = cases[start : start + BATCH]
        docs = [(case.pk, document_of(case)) for case in batch]
        if is_postgres():
            _write_postgres(docs)
        elif connection.vendor == "sqlite":
            _write_sqlite(docs)
        _write_keys(batch)
        typos.add_words(Counter(word for _, doc in docs for word in doc.words))


# Raise when what a case's index entry holds changes (`case_document`, `_PG_VECTOR`):
# `load_knowledge` then rebuilds every entry at the next start.
INDEX_FORMAT = 2


def rebuild_index() -> int:
    """Index every case again from scratch, vocabulary included; returns how many."""
    typos.clear_vocabulary()
    count = 0
    for start in range(0, Case.objects.count(), BATCH):
        batch = list(Case.objects.order_by("pk")[start : start + BATCH])
        index_cases(batch)
        count += len(batch)
    SearchIndexFormat.objects.all().delete()
    SearchIndexFormat.objects.create(version=INDEX_FORMAT)
    return count


def index_is_current() -> bool:
    """Whether the stored index was built the way this code builds it."""
    return SearchIndexFormat.objects.filter(version=INDEX_FORMAT).exists()


def remove_cases(ids: Sequence[int]) -> None:
    """Forget deleted cases (the PostgreSQL vector and the keys go with their row)."""
    if connection.vendor == "sqlite" and ids:
        with connection.cursor() as cursor:
            marks = ", ".join(["%s"] * len(ids))
            cursor.execute(f"DELETE FROM {FTS_TABLE} WHERE rowid IN ({marks})", list(ids))


def _unindex(ids: Sequence[int]) -> None:
    if not ids:
        return
    remove_cases(ids)
    if is_postgres():
        Case.objects.filter(pk__in=ids).update(search_vector=None)
    CaseKey.objects.filter(case__in=ids).delete()


_PG_VECTOR = (
    "setweight(to_tsvector('english', v.title), 'A') || "
    "setweight(to_tsvector('english', v.body), 'B') || "
    "setweight(to_tsvector('english', v.detail), 'C') || "
    "setweight(to_tsvector('simple', v.keys), 'A') || "
    # the title again, word for word: English stemming drops "out of" from "out of memory",
    # so only this part can tell that phrase from a title that merely says "memory"
    "setweight(to_tsvector('simple', v.title), 'A')"
)


def _write_postgres(docs: Sequence[tuple[int, Document]]) -> None:
    rows = ", ".join(["(%s::bigint, %s, %s, %s, %s)"] * len(docs))
    params = [x for pk, d in docs for x in (pk, d.title, d.body, d.detail, d.keys)]
    sql = (
        f"UPDATE incidents_case AS c SET search_vector = {_PG_VECTOR} "
        f"FROM (VALUES {rows}) AS v(id, title, body, detail, keys) WHERE c.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _write_sqlite(docs: Sequence[tuple[int, Document]]) -> None:
    remove_cases([pk for pk, _ in docs])
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {FTS_TABLE} (rowid, title, body, detail, keys) VALUES (%s, %s, %s, %s, %s)",
            [(pk, d.title, d.body, d.detail, d.keys) for pk, d in docs],
        )


def _write_keys(cases: Sequence[Case]) -> None:
    CaseKey.objects.filter(case__in=[c.pk for c in cases]).delete()
    keys = [
        CaseKey(case_id=case.pk, kind=kind, value=str(value).strip().lower()[:200])
        for case in cases
        for kind, values in (
            (CaseKey.Kind.CODE, case.codes),
            (CaseKey.Kind.OPERATOR, case.operators),
            (CaseKey.Kind.HARDWARE, case.hardware),
        )
        for value in dict.fromkeys(values or ())
        if str(value).strip()
    ]
    CaseKey.objects.bulk_create(keys, batch_size=BATCH)


# ------------------------------------------------------------------------------ reading


def ranked(
    query: Query, base: QuerySet[Case], *, filtered: bool, limit: int, offset: int
) -> Ranked:
    """The page [offset, offset+limit) of cases in `base` matching `query`, best first."""
    if query.empty:
        return Ranked([], frozenset(), 0)
    if is_postgres():
        return _ranked_postgres(query, base, limit, offset)
    return _ranked_sqlite(query, base, filtered, limit, offset)


def without(base: QuerySet[Case], terms: Sequence[Term]) -> QuerySet[Case]:
    """`base` less the cases holding any of `terms`: a query of only excluded words lists
    the library without them."""
    if not terms:
        return base
    if is_postgres():
        holding: Any = _websearch_query(websearch_term(terms[0]))
        for term in terms[1:]:
            holding = holding | _websearch_query(websearch_term(term))
        return base.exclude(search_vector=holding)
    if connection.vendor == "sqlite":
        match = " OR ".join(fts5_term(term) for term in terms)
        sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s"
        return base.exclude(pk__in=RawSQL(sql, [match]))
    return base


def _ranked_postgres(query: Query, base: QuerySet[Case], limit: int, offset: int) -> Ranked:
    weighted = coverage.weighted_terms(query, FTS_TABLE)
    key_q = SearchQuery(" | ".join(query.key_lexemes), search_type="raw", config="simple")
    full: Any = key_q
    for item in weighted:
        full = full | _websearch_query(websearch_term(item.term))
    for term in query.excluded_terms():
        full = full & ~_websearch_query(websearch_term(term))
    phrase = query.phrase()
    phrase_rank: Any = Value(0.0)
    if phrase:
        phrase_q = SearchQuery(phrase, search_type="phrase", config="simple")
        phrase_rank = Coalesce(SearchRank(F("search_vector"), phrase_q), Value(0.0))
    rows = list(
        base.filter(search_vector=full)
        .annotate(
            score=RawSQL(*coverage.postgres_score(weighted)) if weighted else Value(0),
            rank=SearchRank(F("search_vector"), full),
            key_rank=Coalesce(SearchRank(F("search_vector"), key_q), Value(0.0)),
            phrase_rank=phrase_rank,
            total=Window(Count("*")),  # counted in the same pass as the ranking
        )
        .order_by("-score", "-key_rank", "-phrase_rank", "-rank", "pk")
        .values_list("pk", "key_rank", "total")[offset : offset + limit]
    )
    total = min(rows[0][2], COUNT_CAP) if rows else 0
    return Ranked([r[0] for r in rows], frozenset(r[0] for r in rows if r[1] > 0), total)


def _websearch_query(text: str) -> SearchQuery:
    return SearchQuery(text, search_type="websearch", config="english")


_SQLITE_WEIGHTS = "10.0, 4.0, 1.0, 10.0"  # title, body, detail, keys
_SQLITE_MATCH = (
    f"SELECT rowid AS id, bm25({FTS_TABLE}, {_SQLITE_WEIGHTS}) AS score "
    f"FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s"
)


def _ranked_sqlite(
    query: Query, base: QuerySet[Case], filtered: bool, limit: int, offset: int
) -> Ranked:
    """Cases holding any query word, by the weight of the words they hold (see
    incidents.library.coverage), then by how many codes or operators equal query tokens
    (counted from the CaseKey table), then by bm25 (title > body > detail)."""
    weighted = coverage.weighted_terms(query, FTS_TABLE)
    match = _fts5_match(query, weighted)
    if not match:
        return Ranked([], frozenset(), 0)
    score_sql, score_params = coverage.sqlite_score(weighted, FTS_TABLE)
    marks = ", ".join(["%s"] * len(query.keys)) or "NULL"
    # as PostgreSQL's phrase rank: a title holding the words as typed ranks above one that only
    # shares them ("out of memory" before "illegal memory access": `of` and `out` weigh nothing)
    phrase = query.phrase()
    phrase_match = "{title} : " + fts5_term(Term(phrase, phrase=True)) if phrase else ""
    params: list = [match, *score_params, phrase_match, phrase_match, *query.keys]
    where = ""
    if filtered:
        base_sql, base_params = base.order_by().values("pk").query.sql_with_params()
        where = f"WHERE m.id IN ({base_sql})"
        params.extend(base_params)
    sql = (
        f"WITH m AS MATERIALIZED ({_SQLITE_MATCH}), s AS MATERIALIZED ({score_sql}), "
        f"p AS MATERIALIZED (SELECT rowid AS id FROM {FTS_TABLE} WHERE %s != '' "
        f"AND {FTS_TABLE} MATCH %s), "
        "k AS MATERIALIZED (SELECT case_id AS id, COUNT(*) AS hits FROM incidents_casekey "
        f"WHERE kind IN ('code', 'operator') AND value IN ({marks}) GROUP BY case_id) "
        "SELECT m.id, COALESCE(k.hits, 0) AS hits, COUNT(*) OVER () "
        f"FROM m LEFT JOIN s ON s.id = m.id LEFT JOIN k ON k.id = m.id {where} "
        "ORDER BY COALESCE(s.score, 0) DESC, hits DESC, "
        "EXISTS (SELECT 1 FROM p WHERE p.id = m.id) DESC, m.score ASC, m.id LIMIT %s OFFSET %s"
    )
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, limit, offset])
            rows = cursor.fetchall()
    except OperationalError as error:  # an expression FTS5 cannot parse
        log.warning("case search %r failed: %s", match, error)
        return Ranked([], frozenset(), 0)
    total = min(rows[0][2], COUNT_CAP) if rows else 0
    return Ranked([r[0] for r in rows], frozenset(r[0] for r in rows if r[1]), total)


def _fts5_match(query: Query, weighted: Sequence[coverage.Weighted]) -> str:
    """Any of the words some case holds, or a key; none of the excluded words."""
    anyof = [fts5_term(w.term) for w in weighted]
    if query.keys:
        anyof.append(fts5_keys(query.key_lexemes))
    if not anyof:
        return ""
    excluded = [fts5_term(t) for t in query.excluded_terms()]
    return " NOT ".join([f"({' OR '.join(anyof)})", *excluded])


@receiver(post_save, sender=Case)
def _index_saved_case(sender, instance: Case, raw: bool = False, **kwargs) -> None:
    """Saving a case keeps its search index entry current (fixtures loaded raw are not)."""
    if not raw:
        index_cases([instance])


@receiver(post_delete, sender=Case)
def _drop_from_index(sender, instance: Case, **kwargs) -> None:
    """SQLite's full-text table is not tied to the case row by a foreign key."""
    remove_cases([instance.pk])
