"""Field weights of the search index, on the seeded library, on whichever database runs.

Run both: with DATABASE_URL (PostgreSQL: stored tsvector, ts_rank) and without (SQLite:
FTS5, bm25). What names a failure (title, symptoms, the words for its category) must
outweigh how it is explained (root cause, fix).
"""

from __future__ import annotations

import pytest

from incidents.library.models import Case
from incidents.library.query import case_search
from incidents.library.services import cases_load_knowledge
from tests.incidents.library_helpers import make_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    cases_load_knowledge()


def ranked(text: str) -> list[Case]:
    return [hit.case for hit in case_search(text=text, per_page=100).hits]


def test_out_of_memory_puts_the_oom_cases_first(seeded):
    found = ranked("out of memory")

    oom = [c.slug for c in found if c.category == "oom"]
    memory_access = [c.slug for c in found].index("aicore-exception-out-of-bounds")
    assert found[0].category == "oom"
    assert len(oom) == Case.objects.filter(category="oom").count()
    assert all(found.index(Case.objects.get(slug=s)) < memory_access for s in oom)


def test_out_of_memory_lists_every_oom_case_before_any_other(seeded):
    found = ranked("out of memory")

    categories = [c.category for c in found]
    first_other = next(i for i, category in enumerate(categories) if category != "oom")
    assert categories[:first_other] == ["oom"] * Case.objects.filter(category="oom").count()


def test_a_word_in_the_symptoms_outranks_it_in_the_body(seeded):
    make_case(
        slug="body-mentions-tokenizer",
        title="Slow start after an upgrade",
        category="other",
        tags=["tokenizer"],
        root_cause="A cache was rebuilt on every rank.",
        fix="Warm the cache before launch.",
    )
    make_case(
        slug="symptom-mentions-tokenizer",
        title="Start-up stalls",
        category="other",
        symptoms=["rank 0 waits in the tokenizer while the others wait in a barrier"],
        root_cause="A lock file was left behind.",
        fix="Remove it.",
    )

    found = [c.slug for c in ranked("tokenizer")]

    assert found.index("symptom-mentions-tokenizer") < found.index("body-mentions-tokenizer")


def test_a_category_word_finds_cases_that_never_spell_it_out(seeded):
    kv_cache = Case.objects.get(slug="oom-kv-cache")
    assert "memory" not in (kv_cache.title + " ".join(kv_cache.symptoms)).lower()

    assert "oom-kv-cache" in [c.slug for c in ranked("out of memory")]


def test_a_case_is_found_by_a_word_in_another_alphabet():
    make_case(slug="ru-note", title="Сбой связи между узлами", category="hccl")
    make_case(slug="ru-memory", title="Нехватка памяти на устройстве", category="oom")

    assert [hit.case.slug for hit in case_search(text="связи").hits] == ["ru-note"]
