"""Chinese siblings of knowledge text: checked on load, and re-filled from English."""

from __future__ import annotations

import pytest

from analyzers.core.bilingual import (
    BilingualError,
    fill,
    placeholders,
    refill,
    zh_list,
    zh_text,
)


def test_zh_text_returns_the_chinese_with_whitespace_folded():
    raw = {"fix_zh": "  调大 HCCL_BUFFSIZE\n 后重试 "}

    assert zh_text(raw, "fix", "Raise HCCL_BUFFSIZE.", "x.yaml: case 'a'") == (
        "调大 HCCL_BUFFSIZE 后重试"
    )


def test_zh_text_is_none_when_absent():
    assert zh_text({}, "fix", "Raise HCCL_BUFFSIZE.", "x.yaml: case 'a'") is None


def test_zh_text_refuses_text_without_chinese():
    with pytest.raises(BilingualError, match=r"x.yaml: case 'a': 'fix_zh' must be a string"):
        zh_text({"fix_zh": "Raise it"}, "fix", "Raise HCCL_BUFFSIZE.", "x.yaml: case 'a'")


def test_zh_text_needs_the_same_placeholders_as_the_english():
    english = "Rank(s) {ranks} never reached the barrier."
    with pytest.raises(BilingualError, match=r"same placeholders as 'text' \(ranks\)"):
        zh_text({"text_zh": "有 rank 没有到达 barrier。"}, "text", english, "actions.yaml")


def test_zh_list_needs_one_item_per_english_item():
    raw = {"symptoms_zh": ["进程挂起"]}
    with pytest.raises(BilingualError, match=r"'symptoms_zh' has 1 item\(s\); 'symptoms' has 2"):
        zh_list(raw, "symptoms", ["hangs", "times out"], "x.yaml: case 'a'")


def test_refill_moves_the_values_into_the_chinese_template():
    english = "Rank(s) {ranks} never reached the barrier: read {ranks} first."
    chinese = "rank {ranks} 始终没有到达 barrier：先看 {ranks}。"

    filled = refill(english, chinese, "Rank(s) 2, 5 never reached the barrier: read 2, 5 first.")

    assert filled == "rank 2, 5 始终没有到达 barrier：先看 2, 5。"


def test_refill_is_none_for_a_sentence_from_another_template():
    assert refill("Check {op} first.", "先检查 {op}。", "Check the network.") is None
    assert refill("Check {op} first.", "先检查 {op}。", "Check aclnnAdd first. Then more.") is None


def test_placeholders_lists_the_names():
    assert placeholders("{ranks} and {op}, not {{literal}}") == {"ranks", "op"}


def test_fill_leaves_out_the_bracketed_clause_of_a_value_not_known():
    assert fill("ranks missing (missing: {ranks})", {"ranks": "2, 3"}) == (
        "ranks missing (missing: 2, 3)"
    )
    assert fill("ranks missing (missing: {ranks})", {"ranks": ""}) == "ranks missing"
    assert fill("有 rank 缺失（缺失：{ranks}）", {"ranks": ""}) == "有 rank 缺失"


def test_refill_reads_a_sentence_that_left_its_empty_clause_out():
    english, chinese = "ranks missing (missing: {ranks})", "有 rank 缺失（缺失：{ranks}）"
    assert refill(english, chinese, "ranks missing") == "有 rank 缺失"


def test_fill_leaves_out_a_closing_colon_clause_of_a_value_not_known():
    assert fill("ranks silent: {ranks}", {"ranks": ""}) == "ranks silent"
    assert refill("ranks silent: {ranks}", "无声退出的 rank：{ranks}", "ranks silent") == (
        "无声退出的 rank"
    )
