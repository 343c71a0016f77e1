"""Knowledge text in the active language, with English as the fallback."""

from __future__ import annotations

import pytest
from django.utils import translation

from analyzers.tree.walk import load_tree
from incidents import localized
from incidents.library.models import Case
from incidents.tree.drawing import build_tree_view


def test_category_names_follow_the_language():
    with translation.override("en"):
        assert localized.category_name("oom") == "Out of memory"
    with translation.override("zh-hans"):
        assert localized.category_name("oom") == "内存不足"
        assert localized.category_description("oom") == "设备显存（或主机内存）已耗尽。"
        assert localized.category_name("not_a_label") == "not_a_label"


def test_a_knowledge_entry_falls_back_to_english_without_chinese():
    node = load_tree().node("start")
    entry = {"question": "Which rank failed?"}  # a new entry written in English only

    with translation.override("zh-hans"):
        assert localized.text(node, "question") == "是否有 rank 或组件打印了明确的错误？"
        assert localized.text(entry, "question") == "Which rank failed?"
    with translation.override("en"):
        assert localized.text(node, "question") == node.question


def test_a_seeded_case_shows_its_translation_and_a_promoted_case_its_own_words():
    seeded = Case(title="HCCL buffer too small", translations={"zh": {"title": "HCCL 缓冲区太小"}})
    promoted = Case(title="Nightly job lost rank 3", translations={})

    with translation.override("zh-hans"):
        assert localized.text(seeded, "title") == "HCCL 缓冲区太小"
        assert localized.text(promoted, "title") == "Nightly job lost rank 3"
    with translation.override("en"):
        assert localized.text(seeded, "title") == "HCCL buffer too small"


def test_next_actions_are_re_filled_in_chinese():
    sentence = (
        "Rank(s) 1, 2 never reached the barrier: read their logs from the last common "
        "checkpoint on for an error, a hang, or a branch the other ranks did not take."
    )
    with translation.override("zh-hans"):
        assert localized.next_action(sentence).startswith("rank 1, 2 始终没有到达 barrier")
        assert localized.next_action("Check the cabling.") == "Check the cabling."
    with translation.override("en"):
        assert localized.next_action(sentence) == sentence


@pytest.mark.django_db
def test_tree_labels_and_answers_follow_the_language():
    report = {
        "diagnosis": {
            "tree_steps": [
                {"node": "start", "answer": "explicit error (hccl)", "evidence": []},
                {"node": "explicit_error", "answer": "collective communication failure"},
                {"node": "hccl", "answer": None},
            ]
        }
    }
    view = build_tree_view(report)
    explicit = next(v for v in view.nodes() if v.node.id == "explicit_error")
    healthy = next(v for v in view.nodes() if v.node.id == "healthy")
    start = view.root

    with translation.override("zh-hans"):
        assert localized.node_label(explicit) == "明确报错（hccl）"
        assert localized.node_label(healthy) == "所有 rank 都已完成"
        assert localized.node_answer(start) == "明确报错（hccl）"
        assert localized.node_answer(explicit) == "集合通信失败"
    with translation.override("en"):
        assert localized.node_label(explicit) == "explicit error (hccl)"
        assert localized.node_answer(explicit) == "collective communication failure"
