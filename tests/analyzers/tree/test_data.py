"""The tree's Chinese siblings: label, question and guidance per node, check and how per
verification item."""

from __future__ import annotations

import pytest

from analyzers.tree.data import load_tree, parse_tree
from analyzers.tree.predicates import TreeError


def tree(**root_changes) -> dict:
    root = {
        "id": "start",
        "label": "incident",
        "label_zh": "事故",
        "question": "Did any rank log an error?",
        "question_zh": "是否有 rank 打印了错误？",
        "guidance": "Collect every rank's log.",
        "guidance_zh": "收集每个 rank 的日志。",
        "children": ["explicit_error"],
    }
    child = {
        "id": "explicit_error",
        "label": "explicit error ({category})",
        "label_zh": "明确报错（{category}）",
        "when": {"any_error": True},
        "question": "Which class?",
        "guidance": "Classify first.",
    }
    verification = [
        {"id": "all_ranks", "check": "Every rank passes.", "check_zh": "每个 rank 都通过。"}
    ]
    return {"root": "start", "nodes": [root | root_changes, child], "verification": verification}


def test_chinese_text_loads_beside_the_english():
    loaded = parse_tree(tree(), case_ids=frozenset())

    assert loaded.node("start").question_zh == "是否有 rank 打印了错误？"
    assert loaded.node("explicit_error").label_zh == "明确报错（{category}）"
    assert loaded.node("explicit_error").guidance_zh is None  # allowed; the audit lists it
    assert loaded.verification[0].check_zh == "每个 rank 都通过。"
    assert loaded.to_dict()["nodes"][0]["guidance_zh"] == "收集每个 rank 的日志。"


def test_a_chinese_label_must_keep_the_placeholders():
    data = tree()
    data["nodes"][1]["label_zh"] = "明确报错"

    with pytest.raises(TreeError, match=r"node 'explicit_error': 'label_zh' must use the same"):
        parse_tree(data, case_ids=frozenset())


def test_a_chinese_question_must_hold_chinese():
    with pytest.raises(TreeError, match=r"node 'start': 'question_zh' must be a string"):
        parse_tree(tree(question_zh="Any error?"), case_ids=frozenset())


def test_the_shipped_tree_is_bilingual():
    shipped = load_tree()

    assert all(n.question_zh and n.guidance_zh and n.label_zh for n in shipped.nodes.values())
    assert all(v.check_zh for v in shipped.verification)


CUDA_TWIN = {
    "guidance": "Collect every rank's log and an nvidia-smi snapshot.",
    "guidance_zh": "收集每个 rank 的日志和一份 nvidia-smi 快照。",
    "commands": ["nvidia-smi"],
}


def test_a_node_can_say_something_else_to_a_cuda_job():
    loaded = parse_tree(tree(cuda=CUDA_TWIN, commands=["npu-smi info"]), case_ids=frozenset())
    start = loaded.node("start")

    assert start.for_stack("cuda").commands == ("nvidia-smi",)
    assert start.for_stack("cuda").guidance_zh == "收集每个 rank 的日志和一份 nvidia-smi 快照。"
    assert start.for_stack("ascend").commands == ("npu-smi info",)
    assert start.for_stack(None) is start
    assert loaded.to_dict()["nodes"][0]["cuda"]["commands"] == ["nvidia-smi"]


def test_a_node_without_a_cuda_text_shows_its_own_to_a_cuda_job():
    start = parse_tree(tree(), case_ids=frozenset()).node("start")

    assert start.for_stack("cuda") is start


def test_a_node_can_say_something_else_to_a_cpu_job():
    cpu_twin = {
        "guidance": "Collect every rank's log and the kernel log.",
        "guidance_zh": "收集每个 rank 的日志和内核日志。",
        "commands": ["dmesg -T | tail -200"],
    }
    loaded = parse_tree(
        tree(cuda=CUDA_TWIN, cpu=cpu_twin, commands=["npu-smi info"]), case_ids=frozenset()
    )
    start = loaded.node("start")

    assert start.for_stack("cpu").commands == ("dmesg -T | tail -200",)
    assert start.for_stack("cuda").commands == ("nvidia-smi",)
    assert start.for_stack("ascend") is start
    assert loaded.to_dict()["nodes"][0]["cpu"]["guidance_zh"] == "收集每个 rank 的日志和内核日志。"


def test_a_cuda_text_with_an_unknown_field_is_refused():
    with pytest.raises(TreeError, match=r"node 'start': cuda: unknown field\(s\) \['env'\]"):
        parse_tree(tree(cuda=CUDA_TWIN | {"env": ["NCCL_DEBUG=INFO"]}), case_ids=frozenset())


def test_the_shipped_tree_speaks_cuda_where_its_guidance_names_ascend_tools():
    shipped = load_tree()
    for node_id in ("start", "no_explicit_error", "driver_env", "device_lost", "config"):
        twin = shipped.node(node_id).cuda
        assert twin is not None, node_id
        assert "npu-smi" not in twin.guidance
        assert "CANN" not in twin.guidance
        assert twin.guidance_zh
