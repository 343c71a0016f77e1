"""Every knowledge text people read has its Chinese; report sentences re-fill into it."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import analyze
from analyzers.classify.rules import load_knowledge
from analyzers.core.options import AnalyzeOptions
from analyzers.library.data import parse_cases
from analyzers.report import translations
from analyzers.report.advise import Situation, next_actions
from analyzers.report.translations import action_zh, missing_translations, tree_answer_zh


def test_every_shipped_knowledge_entry_has_its_chinese():
    """Categories, case titles/symptoms/root causes/fixes/verify steps, tree labels,
    questions, guidance and checklist, every next action, and every signature title and
    code meaning (knowledge/zh/) a root-cause sentence is made of."""
    missing = missing_translations()

    assert missing == [], "knowledge without Chinese:\n" + "\n".join(missing)


def test_a_case_without_chinese_is_listed(monkeypatch):
    english_only = parse_cases(
        {
            "cases": [
                {
                    "id": "npu-widget-fault",
                    "title": "Widget fault",
                    "title_zh": "部件故障",
                    "category": "device_fault",
                    "symptoms": ["the widget blinks"],
                    "root_cause": "The widget broke.",
                    "root_cause_zh": "部件坏了。",
                    "fix": "Replace the widget.",
                }
            ]
        },
        source="widgets.yaml",
    )
    monkeypatch.setattr(translations, "load_cases", lambda: english_only)

    missing = missing_translations()

    assert "cases/widgets.yaml: npu-widget-fault: fix_zh" in missing
    assert "cases/widgets.yaml: npu-widget-fault: symptoms_zh" in missing
    assert not [m for m in missing if "title_zh" in m or "root_cause_zh" in m]
    assert not [m for m in missing if "verify_zh" in m]  # it has no verify steps


def test_a_next_action_from_a_report_reads_in_chinese_with_its_values():
    book = load_knowledge().actions
    situation = Situation(
        category="hccl",
        signature_ids=["hccl.monitored_barrier_failed"],
        multi_rank=True,
        values={"ranks": "2, 3", "ranks_suffix": " (rank 2)", "first_ranks_suffix": " (rank 2)"},
    )
    english = next_actions(book, situation)

    chinese = [action_zh(sentence) for sentence in english]

    assert english[0].startswith("Rank(s) 2, 3 never reached the barrier")
    assert chinese[0].startswith("rank 2, 3 始终没有到达 barrier")
    assert all(c and c != e for c, e in zip(chinese, english, strict=True))
    assert any("(rank 2)" in c for c in chinese if c)


def test_a_verdicts_next_action_reads_in_chinese():
    """Advice written for a job-level verdict (`verdicts:` in actions.yaml) is translated like
    a signature's."""
    book = load_knowledge().actions
    situation = Situation(
        category="config",
        verdict="multirank.waits_past_world",
        multi_rank=True,
        values={"ranks": "3", "ranks_suffix": " (rank 3)"},
    )
    english = next_actions(book, situation)

    assert "WORLD_SIZE" in english[0]
    assert action_zh(english[0]) is not None


def test_a_sentence_that_is_no_action_has_no_chinese():
    assert action_zh("Check the TP split of the projection weights.") is None


def test_a_tree_answer_reads_in_chinese_with_its_values():
    assert tree_answer_zh("explicit_error", "explicit error (hccl)") == "明确报错（hccl）"
    assert tree_answer_zh("healthy", "every rank finished") == "所有 rank 都已完成"
    assert tree_answer_zh("healthy", "something else") is None
    assert tree_answer_zh("no_such_node", "incident") is None


def test_a_tree_answer_in_a_stacks_words_reads_in_chinese_too():
    assert tree_answer_zh("hang_leftover_processes", "leftover processes on the GPUs") == (
        "GPU 上有残留进程"
    )
    assert tree_answer_zh("deploy_ranks_missing", "ranks missing (missing: 3)") == (
        "有 rank 缺失（缺失：3）"
    )


def test_a_tree_answer_that_left_out_its_empty_ranks_reads_in_chinese_without_them():
    assert tree_answer_zh("hccl_divergent_paths", "ranks took different paths") == (
        "各 rank 走了不同路径"
    )


@pytest.mark.parametrize(
    "bundle", ["crash_one_rank", "divergent_monitored_barrier", "healthy", "killed_rank"]
)
def test_a_real_report_reads_entirely_in_chinese(corpus: Path, bundle: str):
    """Every next action and tree answer of a real analysis re-fills into Chinese."""
    report = analyze(corpus / "torch" / f"{bundle}.tar.gz", AnalyzeOptions(workers=1)).to_dict()
    diagnosis = report["diagnosis"]
    steps = diagnosis["tree_steps"]

    actions = [action_zh(sentence) for sentence in diagnosis["next_actions"]]
    answers = [
        tree_answer_zh(following["node"], step["answer"])
        for step, following in zip(steps, [*steps[1:], steps[-1]], strict=True)
        if step["answer"]
    ]

    assert diagnosis["next_actions"]
    assert None not in actions, diagnosis["next_actions"]
    assert answers
    assert None not in answers, [s["answer"] for s in steps]
