"""A case's Chinese siblings: loaded beside the English, checked item for item."""

from __future__ import annotations

import pytest

from analyzers.library.data import CaseError, load_cases, parse_cases


def case(**changes) -> dict:
    values = {
        "id": "hccl-buffer-demo",
        "title": "HCCL buffer too small",
        "title_zh": "HCCL 缓冲区太小",
        "category": "hccl",
        "symptoms": ["dispatch fails at tiling", "the error names HCCL_BUFFSIZE"],
        "symptoms_zh": ["dispatch 在 tiling 阶段失败", "报错中点名 HCCL_BUFFSIZE"],
        "root_cause": "The buffer is smaller than the dispatch needs.",
        "root_cause_zh": "缓冲区小于 dispatch 所需。",
        "fix": "Raise HCCL_BUFFSIZE.",
        "fix_zh": "调大 HCCL_BUFFSIZE。",
        "verify": ["the largest batch passes"],
        "verify_zh": ["最大的 batch 能够通过"],
    }
    return values | changes


def test_chinese_fields_load_beside_the_english():
    (loaded,) = parse_cases({"cases": [case()]}, source="demo.yaml")

    assert loaded.title == "HCCL buffer too small"
    assert loaded.title_zh == "HCCL 缓冲区太小"
    assert loaded.symptoms_zh == ("dispatch 在 tiling 阶段失败", "报错中点名 HCCL_BUFFSIZE")
    assert loaded.chinese() == {
        "title": "HCCL 缓冲区太小",
        "root_cause": "缓冲区小于 dispatch 所需。",
        "fix": "调大 HCCL_BUFFSIZE。",
        "symptoms": ["dispatch 在 tiling 阶段失败", "报错中点名 HCCL_BUFFSIZE"],
        "verify": ["最大的 batch 能够通过"],
    }


def test_a_case_may_be_written_in_english_first():
    english = {k: v for k, v in case().items() if not k.endswith("_zh")}

    (loaded,) = parse_cases({"cases": [english]}, source="demo.yaml")

    assert loaded.title_zh is None
    assert loaded.chinese() == {}


def test_chinese_symptoms_must_match_the_english_one_for_one():
    bad = case(symptoms_zh=["dispatch 在 tiling 阶段失败"])

    with pytest.raises(CaseError, match=r"demo.yaml: case 'hccl-buffer-demo': 'symptoms_zh'"):
        parse_cases({"cases": [bad]}, source="demo.yaml")


def test_a_chinese_field_must_hold_chinese():
    with pytest.raises(CaseError, match=r"'fix_zh' must be a string written in Chinese"):
        parse_cases({"cases": [case(fix_zh="Raise it.")]}, source="demo.yaml")


def test_the_shipped_library_is_bilingual():
    cases = load_cases()

    assert all(c.title_zh and c.root_cause_zh and c.fix_zh for c in cases)
    assert all(len(c.symptoms_zh or ()) == len(c.symptoms) for c in cases)
