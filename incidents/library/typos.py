"""Typo tolerance: replace a query word the library never uses by the closest word it does.

Candidates come from the vocabulary (`SearchTerm`) through a deletion index (`TermVariant`:
each word with one letter dropped), where two words a letter or two apart share an entry;
that takes a few btree lookups on any database. On PostgreSQL with pg_trgm, a word the
deletion index finds nothing for is also looked up by trigram similarity (two letters
changed far apart, which share no deletion). Every candidate is then checked with a real
edit distance, so both paths answer alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

from django.db import connection

from incidents.library.models import SearchTerm, TermVariant

MIN_LENGTH = 5  # shorter words have too many neighbours to guess from
TRIGRAM_THRESHOLD = "0.2"
CANDIDATES = 30
CHUNK = 500


def max_distance(word: str) -> int:
    return 1 if len(word) < 8 else 2


@cache
def _has_trigram(database: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        return cursor.fetchone() is not None


def uses_trigram() -> bool:
    """True on PostgreSQL when the pg_trgm extension is installed in this database."""
    return connection.vendor == "postgresql" and _has_trigram(connection.settings_dict["NAME"])


# ------------------------------------------------------------------------------ writing


def deletions(word: str) -> set[str]:
    """`word` with each one of its letters left out."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def add_words(counts: Counter[str]) -> None:
    """Add words to the vocabulary (with how many cases used them when first seen)."""
    words = sorted(counts)
    for start in range(0, len(words), CHUNK):
        chunk = words[start : start + CHUNK]
        known = set(SearchTerm.objects.filter(term__in=chunk).values_list("term", flat=True))
        new = [w for w in chunk if w not in known]
        SearchTerm.objects.bulk_create(
            [SearchTerm(term=w, df=counts[w]) for w in new], ignore_conflicts=True
        )
        if new:
            _add_variants(new)


def clear_vocabulary() -> None:
    TermVariant.objects.all().delete()
    SearchTerm.objects.all().delete()


def _add_variants(words: Iterable[str]) -> None:
    rows = [
        (variant, word)
        for word in words
        if len(word) >= MIN_LENGTH - 1
        for variant in sorted({word, *deletions(word)})
    ]
    table = TermVariant._meta.db_table
    with connection.cursor() as cursor:  # plain SQL: this runs for 100,000s of rows
        cursor.executemany(
            f"INSERT INTO {table} (variant, term) VALUES (%s, %s) ON CONFLICT DO NOTHING", rows
        )


# ------------------------------------------------------------------------------ reading


def corrections(words: Sequence[str]) -> dict[str, str]:
    """{misspelled word: vocabulary word} for the words the library does not know.

    A pasted line brings dozens of words no case holds (paths, hosts, sizes); their
    candidates are fetched together, in a few queries whatever the number of words."""
    words = [w.lower() for w in words if len(w) >= MIN_LENGTH]
    if not words:
        return {}
    known = set(SearchTerm.objects.filter(term__in=words).values_list("term", flat=True))
    unknown = list(dict.fromkeys(w for w in words if w not in known))
    found = {}
    for word, candidates in _deletion_candidates(unknown).items():
        if best := closest(word, candidates):
            found[word] = best
    unmatched = [w for w in unknown if w not in found]
    if unmatched and uses_trigram():
        for word, candidates in _trigram_candidates(unmatched).items():
            if best := closest(word, candidates):
                found[word] = best
    return found


def _deletion_candidates(words: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
    """(term, df) pairs sharing a deletion variant with each word: words a letter or two
    apart (see the module docstring), for every word through the same lookups."""
    owners: dict[str, set[str]] = {}
    for word in words:
        for variant in {word, *deletions(word)}:
            owners.setdefault(variant, set()).add(word)
    terms_of: dict[str, set[str]] = {word: set() for word in words}
    variants = sorted(owners)
    for start in range(0, len(variants), CHUNK):
        rows = TermVariant.objects.filter(variant__in=variants[start : start + CHUNK])
        for variant, term in rows.values_list("variant", "term"):
            for word in owners[variant]:
                terms_of[word].add(term)
    df = _document_frequencies(set().union(*terms_of.values()))
    return {
        word: [(t, df[t]) for t in sorted(terms) if t in df] for word, terms in terms_of.items()
    }


def _document_frequencies(terms: set[str]) -> dict[str, int]:
    ordered, df = sorted(terms), {}
    for start in range(0, len(ordered), CHUNK):
        rows = SearchTerm.objects.filter(term__in=ordered[start : start + CHUNK])
        df.update(rows.values_list("term", "df"))
    return df


def _trigram_candidates(words: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
    """Similar words by pg_trgm, through the GIN index on lower(term) (see migration 0002),
    the best CANDIDATES of each word in one query."""
    table = SearchTerm._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('pg_trgm.similarity_threshold', %s, false)", [TRIGRAM_THRESHOLD]
        )
        cursor.execute(
            "SELECT w, t.term, t.df FROM unnest(%s::text[]) AS w CROSS JOIN LATERAL ("
            f"SELECT term, df FROM {table} WHERE lower(term) %% w "
            "ORDER BY similarity(lower(term), w) DESC, term LIMIT %s) AS t",
            [list(words), CANDIDATES],
        )
        found: dict[str, list[tuple[str, int]]] = {}
        for word, term, df in cursor.fetchall():
            found.setdefault(word, []).append((term, df))
        return found


def closest(word: str, found: Iterable[tuple[str, int]]) -> str | None:
    """The nearest candidate within the allowed distance; ties go to the commoner word."""
    limit = max_distance(word)
    scored = [(edit_distance(word, term, limit), -df, term) for term, df in found]
    scored = [s for s in scored if 0 < s[0] <= limit]
    return min(scored)[2] if scored else None


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance counting a swap of neighbours as one edit; `limit + 1` if over."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return min(previous[-1], limit + 1)
