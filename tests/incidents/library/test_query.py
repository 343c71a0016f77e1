"""Case search ranking, on whichever database the tests run (PostgreSQL in CI, else SQLite).

Run both: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pytest tests/incidents` and
plain `pytest tests/incidents`.
"""

from __future__ import annotations

import pytest
from django.db import connection

from incidents.library.query import CaseFilters, case_search
from tests.incidents.library_helpers import make_case, make_library

pytestmark = pytest.mark.django_db


@pytest.fixture
def library():
    return make_library()


def slugs(text: str, **filters: str) -> list[str]:
    return [hit.case.slug for hit in case_search(text=text, filters=CaseFilters(**filters)).hits]


def test_code_query_ranks_the_case_with_that_code_first(library):
    found = slugs("507014")

    assert found[0] == "aicore-timeout"
    assert "decoy-mentions-code" in found[1:]


def test_code_query_marks_the_exact_hit(library):
    hits = case_search(text="507014").hits

    assert [h.exact for h in hits[:2]] == [True, False]


def test_exact_hits_are_ordered_by_their_text_relevance(library):
    make_case(
        slug="other-with-code",
        title="Unrelated widget fault",
        category="other",
        codes=["507014"],
        root_cause="r",
        fix="f",
    )
    make_case(
        slug="timeout-with-code",
        title="Scheduler timeout reports 507014",
        category="aicore_timeout",
        codes=["507014"],
        root_cause="r",
        fix="f",
    )

    assert slugs("507014 scheduler timeout")[0] == "timeout-with-code"


def test_operator_query_ranks_the_exact_operator_above_its_prefix(library):
    assert slugs("npu_moe_distribute_dispatch_v2")[0] == "mc2-dispatch-experts-per-rank"
    assert slugs("npu_moe_distribute_dispatch")[0] == "moe-dispatch-v1-tiling"


def test_operator_query_ignores_case(library):
    assert slugs("ACLNNMOEDISTRIBUTEDISPATCHV2")[0] == "mc2-dispatch-experts-per-rank"


def test_english_words_find_the_case(library):
    assert slugs("buffer too small")[0] == "hccl-buffsize-too-small"


def test_english_words_match_other_word_forms(library):
    assert slugs("reserving buffers")[0] == "hccl-buffsize-too-small"


def test_words_in_the_title_rank_above_words_in_the_fix(library):
    make_case(
        slug="fix-mentions-fragmentation",
        title="Slow start after an upgrade",
        category="other",
        root_cause="The cache was cold.",
        fix="Unrelated to fragmentation.",
    )

    found = slugs("fragmentation")

    assert found.index("oom-fragmentation") < found.index("fix-mentions-fragmentation")


def test_chinese_word_finds_the_case(library):
    assert slugs("显存不足") == ["hbm-exhausted-zh"]


def test_chinese_word_inside_a_sentence_finds_the_case(library):
    assert slugs("训练中断") == ["hbm-exhausted-zh"]


def test_chinese_word_not_in_the_library_finds_nothing(library):
    assert slugs("网络故障") == []


def test_mixed_chinese_and_english_query_puts_the_case_holding_both_first(library):
    found = slugs("NPU 显存")

    assert found[0] == "hbm-exhausted-zh"
    assert "decoy-mentions-code" in found[1:]  # its npu-smi holds one of the two words


def test_typo_finds_the_case_and_says_what_was_searched(library):
    result = case_search(text="fragmentaton")

    assert result.hits[0].case.slug == "oom-fragmentation"
    assert result.corrections == {"fragmentaton": "fragmentation"}


def test_typo_in_an_operator_name_finds_the_operator(library):
    assert slugs("npu_moe_distribute_dispach_v2")[0] == "mc2-dispatch-experts-per-rank"


def test_quoted_word_is_not_corrected(library):
    result = case_search(text='"fragmentaton"')

    assert result.hits == []
    assert result.corrections == {}


def test_excluded_word_removes_cases(library):
    found = slugs("dispatch -tiling")

    assert "mc2-dispatch-experts-per-rank" in found
    assert "moe-dispatch-v1-tiling" not in found


def test_or_finds_either_word(library):
    assert set(slugs("fragmentation or 显存")) == {"oom-fragmentation", "hbm-exhausted-zh"}


def test_hardware_filter_drops_cases_for_other_hardware(library):
    found = slugs("dispatch", hardware="A3")

    assert "moe-dispatch-v1-tiling" in found
    assert "mc2-dispatch-experts-per-rank" not in found


def test_category_filter_narrows_a_word_search(library):
    assert slugs("dispatch", category="hccl") == ["hccl-buffsize-too-small"]


def test_hardware_filter_keeps_cases_for_any_hardware(library):
    assert "aicore-timeout" in slugs("", hardware="A2")


def test_code_filter_without_words_lists_cases_with_that_code(library):
    assert slugs("", code="ez9999") == ["aicore-timeout"]


def test_operator_filter_is_exact(library):
    assert slugs("", operator="npu_moe_distribute_dispatch") == ["moe-dispatch-v1-tiling"]


def test_empty_query_lists_the_library_by_title(library):
    result = case_search(text="")

    titles = [hit.case.title for hit in result.hits]
    assert result.total == len(library)
    assert titles == sorted(titles)


def test_results_page_through_the_matches(library):
    first = case_search(text="dispatch", per_page=1)
    second = case_search(text="dispatch", page=2, per_page=1)

    assert first.total == second.total >= 2
    assert first.has_next
    assert second.has_previous
    assert first.hits[0].case != second.hits[0].case


def test_saving_a_case_updates_its_index(library):
    case = library["oom-fragmentation"]
    case.title = "Allocator splinters the heap"
    case.save()

    assert slugs("splinters") == ["oom-fragmentation"]


def test_deleting_a_case_removes_it_from_search(library):
    library["oom-fragmentation"].delete()

    assert slugs("fragmentation") == []


def test_every_case_is_in_the_database_index(library):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT count(*) FROM incidents_case WHERE search_vector IS NOT NULL")
        else:
            cursor.execute("SELECT count(*) FROM incidents_case_fts")
        indexed = cursor.fetchone()[0]

    assert indexed == len(library)


def test_a_generation_filter_keeps_ascend_wide_cases_and_a_cuda_filter_drops_them(library):
    make_case(
        slug="hccl-wide",
        title="HCCL buffer",
        category="hccl",
        hardware=["ascend"],
        root_cause="r",
        fix="f",
    )
    make_case(
        slug="nccl-shm",
        title="NCCL shared memory",
        category="hccl",
        hardware=["cuda"],
        root_cause="r",
        fix="f",
    )

    on_a2, on_cuda = slugs("", hardware="A2"), slugs("", hardware="cuda")

    assert "hccl-wide" in on_a2
    assert "nccl-shm" not in on_a2
    assert "nccl-shm" in on_cuda
    assert "aicore-timeout" in on_cuda
    assert not {"hccl-wide", "mc2-dispatch-experts-per-rank"} & set(on_cuda)
