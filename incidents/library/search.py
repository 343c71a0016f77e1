"""Full-text search over the case library, on PostgreSQL or SQLite.

PostgreSQL: a stored `tsvector` per case (GIN-indexed), written by
`incidents.library.search_index` when a case is saved or bulk-loaded (no trigger), queried word by word with `websearch_to_tsquery`, relevance by `ts_rank`.
SQLite: an FTS5 table `incidents_case_fts` (rowid = case id), relevance by `bm25`.
Both index the same documents (incidents.library.search_text), drafts left out, and order
results the same way: a case holding any query word matches; the weight of the words it holds
first (incidents.library.coverage: rare words weigh most, so a pasted error line finds its
case), then cases whose code or operator equals a query token, then text relevance.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import OperationalError, connection
from django.db.models import Count, F, QuerySet, Value, Window
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce

from incidents.library import coverage
from incidents.library.models import Case
from incidents.library.search_text import (
    Query,
    Term,
    fts5_keys,
    fts5_term,
    websearch_term,
)

log = logging.getLogger(__name__)

FTS_TABLE = "incidents_case_fts"
COUNT_CAP = 10_000  # totals above are shown as "10000+"


@dataclass(frozen=True, slots=True)
class Ranked:
    """One page of matching case ids, best first, and how many match in all."""

    ids: list[int]
    key_hits: frozenset[int]
    total: int


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


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
