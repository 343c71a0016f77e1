"""Chinese queries over the seeded library: the cases' `terms_zh` make them findable.

Run on both backends: plain `pytest tests/incidents` (SQLite) and with
`DATABASE_URL=postgres://postgres@127.0.0.1:5432/test` (PostgreSQL).
"""

from __future__ import annotations

import pytest

from analyzers.library.matching import parse_cases
from incidents.library.models import Case
from incidents.library.query import case_search
from incidents.library.services import cases_load_knowledge

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    cases_load_knowledge()


def hits(text: str) -> list[Case]:
    return [hit.case for hit in case_search(text=text).hits]


@pytest.mark.parametrize(
    ("query", "category"),
    [
        ("显存不足", "oom"),
        ("内存溢出", "oom"),
        ("通信超时", "hccl"),
        ("HCCL超时", "hccl"),
        ("权重加载", "weight_load"),
        ("算子约束", "op_constraint"),
        ("卡住", "hang"),
        ("AI Core超时", "aicore_timeout"),
        ("驱动固件不匹配", "driver_env"),
        ("形状不匹配", "shape_mismatch"),
    ],
)
def test_chinese_query_ranks_a_case_of_its_kind_first(seeded, query, category):
    found = hits(query)

    assert found, f"{query} finds no case"
    assert found[0].category == category


def test_out_of_memory_in_chinese_finds_the_gpu_memory_cases_only(seeded):
    found = hits("显存不足")

    assert {case.category for case in found} == {"oom"}
    assert "oom-batch-seq-too-large" in {case.slug for case in found}


def test_communication_timeout_in_chinese_finds_the_hccl_timeout_cases(seeded):
    found = {case.slug for case in hits("通信超时")}

    assert {"hccl-watchdog-exec-timeout", "hccl-socket-timeout-peer-stuck"} <= found


def test_chinese_and_english_words_combine(seeded):
    found = hits("切分越界 tensor-parallel")

    assert found[0].slug == "weight-tp-split-out-of-range"


def test_aicore_bisection_term_finds_the_timeout_case(seeded):
    assert hits("二分定位")[0].slug == "aicore-timeout-async-report"


def test_terms_are_seeded_after_the_english_tags_and_once_only():
    [case] = parse_cases(
        {
            "cases": [
                {
                    "id": "npu-widget-oom",
                    "title": "Widget runs out of device memory",
                    "category": "oom",
                    "root_cause": "The widget keeps every buffer.",
                    "fix": "Free the buffers.",
                    "tags": ["oom", "widget"],
                    "terms_zh": ["显存不足", "显存泄漏"],
                }
            ]
        },
        source="test.yaml",
    )

    cases_load_knowledge([case])
    cases_load_knowledge([case])

    assert Case.objects.get().tags == ["oom", "widget", "显存不足", "显存泄漏"]
    assert [c.slug for c in hits("显存泄漏")] == ["npu-widget-oom"]


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        ("训练跑到第三个epoch时报显存不足然后进程就退出了", "oom"),
        ("两台机器一起跑的时候总是通信超时怎么办", "hccl"),
    ],
)
def test_a_pasted_chinese_sentence_finds_a_case_of_its_kind(seeded, sentence, category):
    """A sentence has no spaces, so it is one token: its character pairs are scored like
    words, and a case needs to hold only some of them."""
    found = hits(sentence)

    assert found, f"{sentence} finds no case"
    assert found[0].category == category
