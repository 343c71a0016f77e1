"""Chinese search terms of the case library (`terms_zh`): how they are checked on load."""

from __future__ import annotations

import pytest

from analyzers.library.data import CaseError, load_cases, parse_cases

GOOD = {
    "id": "demo-oom",
    "title": "Out of memory during the forward pass",
    "category": "oom",
    "root_cause": "The batch does not fit.",
    "fix": "Lower the batch size.",
}


def with_terms(terms) -> dict:
    return {"cases": [{**GOOD, "terms_zh": terms}]}


def test_terms_are_optional():
    [case] = parse_cases({"cases": [GOOD]}, source="demo.yaml")

    assert case.terms_zh == ()


def test_terms_are_kept_in_order():
    [case] = parse_cases(with_terms(["显存不足", "内存溢出", "AI Core超时"]), source="demo.yaml")

    assert case.terms_zh == ("显存不足", "内存溢出", "AI Core超时")
    assert case.to_dict()["terms_zh"] == ["显存不足", "内存溢出", "AI Core超时"]


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        ("显存不足", "'terms_zh' must be a list of strings"),
        (["OOM"], "terms_zh 'OOM' must be a short term"),
        ([" 显存不足"], "no surrounding spaces"),
        (["显存不足导致训练进程在前向计算阶段异常退出"], "at most 20 characters"),
        (["显存不足", "显存不足"], "terms_zh lists a term twice"),
    ],
    ids=["not a list", "no chinese", "padded", "a sentence", "twice"],
)
def test_bad_terms_are_rejected_naming_the_case(terms, message):
    with pytest.raises(CaseError) as caught:
        parse_cases(with_terms(terms), source="demo.yaml")

    assert "demo.yaml: case 'demo-oom'" in str(caught.value)
    assert message in str(caught.value)


def test_every_shipped_case_has_three_to_eight_chinese_terms():
    short = {c.id: len(c.terms_zh) for c in load_cases() if not 3 <= len(c.terms_zh) <= 8}

    assert short == {}
