"""Writing the case library's search index, on PostgreSQL or SQLite.

PostgreSQL keeps a weighted `tsvector` on each case row, written here (no trigger); SQLite
keeps the FTS5 table `incidents_case_fts`. Both are filled from the same documents
(`incidents.library.search_text`), with the filter keys and the typo vocabulary beside them,
whenever a case is saved, deleted, published or bulk-loaded; drafts stay out. Reading the
index is `incidents.library.search`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.db import connection, models
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from analyzers.library.category_terms import category_terms
from incidents.library import typos
from incidents.library.models import CASE_TEXT_FIELDS, Case, CaseKey, SearchIndexFormat
from incidents.library.search import FTS_TABLE, is_postgres
from incidents.library.search_documents import Document, case_document

BATCH = 500
# the list-valued fields among those a person edits: a list field added to the case form is
# searched without touching the index
LIST_FIELDS = tuple(
    name for name in CASE_TEXT_FIELDS if isinstance(Case._meta.get_field(name), models.JSONField)
)


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


@receiver(post_save, sender=Case)
def _index_saved_case(sender, instance: Case, raw: bool = False, **kwargs) -> None:
    """Saving a case keeps its search index entry current (fixtures loaded raw are not)."""
    if not raw:
        index_cases([instance])


@receiver(post_delete, sender=Case)
def _drop_from_index(sender, instance: Case, **kwargs) -> None:
    """SQLite's full-text table is not tied to the case row by a foreign key."""
    remove_cases([instance.pk])
