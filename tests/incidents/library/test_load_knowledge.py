"""`manage.py load_knowledge`: the seeded library mirrors the knowledge files, idempotently."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from analyzers.library.matching import load_cases, parse_cases
from incidents.library.models import Case, CaseSource, SearchIndexFormat, SearchTerm
from incidents.library.query import case_search
from incidents.library.search_index import INDEX_FORMAT
from incidents.library.services import cases_load_knowledge
from tests.incidents.library_helpers import make_case

pytestmark = pytest.mark.django_db


def load() -> str:
    out = io.StringIO()
    call_command("load_knowledge", stdout=out)
    return out.getvalue()


def one_case(**changes) -> list:
    values = {
        "id": "npu-widget-fault",
        "title": "Widget fault",
        "category": "device_fault",
        "root_cause": "The widget broke.",
        "fix": "Replace the widget.",
        "codes": ["123456"],
    }
    return parse_cases({"cases": [values | changes]}, source="test.yaml")


def test_load_creates_every_case_of_the_knowledge_files():
    out = load()

    assert Case.objects.seeded().count() == len(load_cases()) >= 40
    assert f"{len(load_cases())} created" in out


def test_second_load_changes_nothing():
    load()
    before = list(Case.objects.order_by("slug").values_list("slug", "updated_at"))

    out = load()

    assert list(Case.objects.order_by("slug").values_list("slug", "updated_at")) == before
    assert "0 created, 0 updated" in out


def test_seeded_case_keeps_the_yaml_id_as_its_permalink():
    load()

    case = Case.objects.get(slug="hccl-buffsize-too-small")
    assert case.get_absolute_url() == "/library/hccl-buffsize-too-small/"
    assert case.knowledge_file == "communication.yaml"


def test_load_updates_a_changed_case():
    cases_load_knowledge(one_case())

    result = cases_load_knowledge(one_case(title="Widget fault, revised"))

    assert result.updated == ["npu-widget-fault"]
    assert Case.objects.get().title == "Widget fault, revised"
    assert case_search(text="revised").hits[0].case.slug == "npu-widget-fault"


def test_load_mirrors_the_chinese_text_and_its_changes():
    load()
    case = Case.objects.get(slug="hccl-buffsize-too-small")
    assert case.translations["zh"]["title"] == "HCCL 缓冲区太小，装不下 MoE dispatch/combine 的数据"
    assert len(case.translations["zh"]["symptoms"]) == len(case.symptoms)

    cases_load_knowledge(one_case(title_zh="部件故障"))
    result = cases_load_knowledge(one_case(title_zh="部件故障（修订）"))

    assert result.updated == ["npu-widget-fault"]
    assert Case.objects.get(slug="npu-widget-fault").translations == {
        "zh": {"title": "部件故障（修订）"}
    }


def test_load_removes_seeded_cases_the_files_dropped_but_keeps_promoted_ones():
    make_case(slug="old-seeded", title="Old", category="other", root_cause="r", fix="f")
    make_case(
        slug="inc-3-promoted", title="Ours", category="other", root_cause="r", fix="f",
        source=CaseSource.PROMOTED,
    )  # fmt: skip

    result = cases_load_knowledge(one_case())

    assert result.removed == ["old-seeded"]
    assert set(Case.objects.values_list("slug", flat=True)) == {
        "npu-widget-fault",
        "inc-3-promoted",
    }
    assert case_search(text="Old").hits == []


def test_load_never_overwrites_a_promoted_case_with_the_same_id():
    make_case(
        slug="npu-widget-fault", title="Ours", category="other", root_cause="r", fix="f",
        source=CaseSource.PROMOTED,
    )  # fmt: skip

    result = cases_load_knowledge(one_case())

    assert result.skipped == ["npu-widget-fault"]
    assert Case.objects.get().title == "Ours"


def test_seeded_codes_are_searchable_after_load():
    load()

    hits = case_search(text="561002").hits
    assert "hccl-buffsize-too-small" in [hit.case.slug for hit in hits]
    # An exact code query returns only cases that carry the code, whatever their order.
    assert all("561002" in hit.case.codes for hit in hits)


def test_reindex_rebuilds_the_vocabulary_for_typo_correction():
    load()
    SearchTerm.objects.all().delete()

    out = io.StringIO()
    call_command("load_knowledge", "--reindex", stdout=out)

    assert f"rebuilt for {Case.objects.count()} cases" in out.getvalue()
    assert case_search(text="fragmentaton").hits[0].case.slug == "oom-fragmentation"


def test_a_start_after_the_index_format_changed_rebuilds_the_index():
    load()
    SearchIndexFormat.objects.update(version=INDEX_FORMAT - 1)  # built by older code
    Case.objects.filter(category="oom").update(search_vector=None)  # what it left behind

    assert "Search index rebuilt" in load()
    assert SearchIndexFormat.objects.get().version == INDEX_FORMAT
    assert case_search(text="out of memory").hits[0].case.category == "oom"


def test_a_start_with_a_current_index_leaves_it_alone():
    load()

    assert "Search index rebuilt" not in load()
