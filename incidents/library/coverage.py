"""How much of a query a case holds: the score cases are ranked by, on both databases.

A query is not a list of words every case must hold. Someone who pastes the line their job
printed, `EZ9999[PID: 80412] 2027-01-03-09:12:44 HCCL_BUFFSIZE is too SMALL, maxBs = 512`,
sends a pid, a time and sizes no case holds; asking for every word finds nothing. So a case
matches when it holds any of the query's words, and scores the sum of the weights of the words
it holds. A word weighs by how rare it is in the library (`log(1 + cases / cases holding it)`,
in thousandths so sums are exact and ties stay ties): `HCCL_BUFFSIZE` decides, `is` barely
counts. A case holding every word of a short query holds the most weight, so it still comes
first. Words no case holds weigh nothing; past MAX_TERMS words, the rarest are kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from incidents.library.models import Case
from incidents.library.search_text import Query, Term, fts5_term, websearch_term

MAX_TERMS = 32  # a pasted line's rarest words; the rest add nothing but work
SCALE = 1000


@dataclass(frozen=True, slots=True)
class Weighted:
    term: Term
    weight: int


def weighted_terms(query: Query, fts_table: str) -> list[Weighted]:
    """The query's words that some case holds, rarest first, with their weights."""
    terms = query.scored_terms()
    if not terms:
        return []
    total, counts = _document_counts(terms, fts_table)
    held = sorted((count, i) for i, count in enumerate(counts) if count)
    return [
        Weighted(terms[i], round(SCALE * math.log(1 + total / count)))
        for count, i in held[:MAX_TERMS]
    ]


def _document_counts(terms: Sequence[Term], fts_table: str) -> tuple[int, list[int]]:
    """How many cases are indexed, and how many of them hold each term (one query)."""
    if connection.vendor == "postgresql":
        holds = "count(*) FILTER (WHERE search_vector @@ websearch_to_tsquery('english', %s))"
        sql = (
            f"SELECT count(*), {', '.join([holds] * len(terms))} "
            f"FROM {Case._meta.db_table} WHERE search_vector IS NOT NULL"
        )
        params = [websearch_term(t) for t in terms]
    elif connection.vendor == "sqlite":
        holds = f"(SELECT count(*) FROM {fts_table} WHERE {fts_table} MATCH %s)"
        sql = f"SELECT (SELECT count(*) FROM {fts_table}), {', '.join([holds] * len(terms))}"
        params = [fts5_term(t) for t in terms]
    else:
        return 0, [0] * len(terms)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0], list(row[1:])


def postgres_score(weighted: Sequence[Weighted]) -> tuple[str, list]:
    """SQL summing the weights of the terms a case's search vector holds."""
    column = f'"{Case._meta.db_table}"."search_vector"'
    part = f"CASE WHEN {column} @@ websearch_to_tsquery('english', %s) THEN %s ELSE 0 END"
    params = [x for w in weighted for x in (websearch_term(w.term), w.weight)]
    return "(" + " + ".join([part] * len(weighted)) + ")", params


def sqlite_score(weighted: Sequence[Weighted], fts_table: str) -> tuple[str, list]:
    """A query of (id, score): the summed weights of the terms each case holds."""
    one = f"SELECT rowid AS id, %s AS w FROM {fts_table} WHERE {fts_table} MATCH %s"
    if not weighted:
        return "SELECT NULL AS id, 0 AS score WHERE 0", []
    union = " UNION ALL ".join([one] * len(weighted))
    params = [x for w in weighted for x in (w.weight, fts5_term(w.term))]
    return f"SELECT id, SUM(w) AS score FROM ({union}) GROUP BY id", params
