"""Keeping the search index in step with the case library: saves, deletes, drafts, rebuilds."""

from __future__ import annotations

import pytest

from incidents.library import search_index
from incidents.library.models import CaseKey, SearchIndexFormat
from incidents.library.query import case_search
from tests.incidents.library_helpers import make_case

pytestmark = pytest.mark.django_db


def found(text: str) -> list[str]:
    return [hit.case.slug for hit in case_search(text=text, per_page=100).hits]


def case(slug: str, **values):
    return make_case(slug=slug, title="HCCL buffer too small", category="hccl", **values)


def test_a_saved_case_is_found_with_its_codes_as_keys_and_a_deleted_one_is_not():
    saved = case("hccl-buffsize", codes=["EI0006"])

    assert found("buffer") == ["hccl-buffsize"]
    assert list(CaseKey.objects.values_list("value", flat=True)) == ["ei0006"]
    saved.delete()
    assert found("buffer") == []


def test_a_draft_stays_out_until_it_is_saved_as_published():
    draft = case("draft-buffsize", is_draft=True)
    assert found("buffer") == []

    draft.is_draft = False
    draft.save()

    assert found("buffer") == ["draft-buffsize"]


def test_a_rebuild_records_the_format_it_built():
    case("hccl-buffsize")
    SearchIndexFormat.objects.all().delete()
    assert not search_index.index_is_current()

    assert search_index.rebuild_index() == 1
    assert search_index.index_is_current()


def test_every_list_a_person_edits_is_searched_and_the_strategy_ids_are_not():
    case("hccl-buffsize", verify=["rerun with HCCL_BUFFSIZE doubled"], strategy=["comm.buffsize"])

    assert found("doubled") == ["hccl-buffsize"]
    assert "strategy" not in search_index.LIST_FIELDS
    assert {"symptoms", "signatures", "verify", "tags"} <= set(search_index.LIST_FIELDS)
