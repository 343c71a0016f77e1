"""The tree's Chinese siblings: label, question and guidance per node, check and how per
verification item."""

from __future__ import annotations

import pytest

from analyzers.tree.loading import load_tree, parse_tree
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


NEUTRAL_TWIN = {
    "guidance": "Collect every rank's log and the device tool's snapshot (npu-smi or nvidia-smi).",
    "guidance_zh": "收集每个 rank 的日志和设备工具的快照（npu-smi 或 nvidia-smi）。",
}


@pytest.mark.parametrize(
    ("stack", "shown"),
    [
        ("unknown", "neutral"),  # nothing in the bundle or its first error names a stack
        ("other", "neutral"),  # another accelerator's runtime: neither twin is its own
        ("cpu", "neutral"),  # a gloo job, on a node with no text of its own for CPUs
        ("cuda", "cuda"),
        ("ascend", "own"),
        (None, "own"),  # the bare tree, with no incident
    ],
)
def test_a_job_on_no_stack_the_node_speaks_to_is_shown_its_device_neutral_text(stack, shown):
    start = parse_tree(
        tree(cuda=CUDA_TWIN, unknown=NEUTRAL_TWIN, commands=["npu-smi info"]),
        case_ids=frozenset(),
    ).node("start")
    texts = {"neutral": start.unknown, "cuda": start.cuda, "own": start}

    assert start.for_stack(stack) is texts[shown]


def test_a_node_without_a_neutral_text_shows_its_own_to_a_job_on_an_unknown_stack():
    start = parse_tree(tree(cuda=CUDA_TWIN), case_ids=frozenset()).node("start")

    assert start.for_stack("unknown") is start
    assert start.for_stack("cpu") is start


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


ASCEND_WORDS = ("npu-smi", "CANN", "plog", "HCCL", "AI Core", "torch_npu", "set_env")
CUDA_WORDS = ("nvidia-smi", "NCCL", "CUDA")
ON_ANY_PATH = [
    "start",
    "explicit_error",
    "stream_sync",
    "device_fault",
    "other_error",
    "no_explicit_error",
]


def _said(node_id: str, stack: str) -> str:
    texts = load_tree().node(node_id).for_stack(stack)
    assert texts.guidance_zh
    return " ".join([texts.guidance, *texts.commands])


@pytest.mark.parametrize("stack", ["cpu", "cuda"])
@pytest.mark.parametrize("node_id", ON_ANY_PATH)
def test_the_shipped_tree_names_no_ascend_tool_to_a_gloo_or_cuda_job(node_id, stack):
    """The nodes an incident's path may cross whatever its stack."""
    said = _said(node_id, stack)

    assert not [word for word in ASCEND_WORDS if word in said]


@pytest.mark.parametrize(
    "node_id", [*ON_ANY_PATH, "config", "driver_env", "env_libraries", "operator"]
)
def test_the_shipped_tree_names_ascend_tools_to_an_unknown_stack_only_beside_cudas(node_id):
    said = _said(node_id, "unknown")

    named = [word for word in ASCEND_WORDS if word in said]
    assert not named or any(word in said for word in CUDA_WORDS), named


def test_a_verification_step_can_say_how_differently_to_each_stack():
    data = tree()
    data["verification"][0] |= {
        "how": "torch.npu.synchronize() around the fixed call",
        "how_zh": "在修复后的调用前后执行 torch.npu.synchronize()",
        "cuda": {"how": "torch.cuda.synchronize() around the fixed call"},
        "unknown": {"how": "the device's synchronize around the fixed call"},
    }
    item = parse_tree(data, case_ids=frozenset()).verification[0]

    assert item.for_stack("cuda").how == "torch.cuda.synchronize() around the fixed call"
    assert item.for_stack("cuda").check == "Every rank passes."  # the check itself is shared
    assert item.for_stack("cpu").how == "the device's synchronize around the fixed call"
    assert item.for_stack("ascend") is item
    assert item.for_stack(None) is item


@pytest.mark.parametrize("stack", ["cpu", "cuda", "unknown"])
def test_the_shipped_checklist_names_npu_calls_to_a_job_not_on_ascend_only_beside_cudas(stack):
    for item in load_tree().verification:
        texts = item.for_stack(stack)
        said = f"{texts.check} {texts.how}"
        assert "torch.npu" not in said or (stack == "unknown" and "torch.cuda" in said), item.id
        assert texts.how_zh or not texts.how


# ------------------------------------------------ questions and labels in a stack's words


def _with_child_twins(**twins) -> dict:
    data = tree()
    data["nodes"][1] |= twins
    return data


CUDA_WORDS_TWIN = {
    "question": "Which class, by nvidia-smi?",
    "question_zh": "按 nvidia-smi 看是哪一类？",
    "label": "explicit error on the GPU ({category})",
    "label_zh": "GPU 上的明确报错（{category}）",
}


def test_a_node_can_ask_a_cuda_job_in_its_own_words():
    node = parse_tree(_with_child_twins(cuda=CUDA_WORDS_TWIN), case_ids=frozenset()).node(
        "explicit_error"
    )

    cuda = node.words_for("cuda")
    assert cuda.question == "Which class, by nvidia-smi?"
    assert cuda.label == "explicit error on the GPU ({category})"
    assert cuda.label_zh == "GPU 上的明确报错（{category}）"
    assert node.words_for("ascend").label == "explicit error ({category})"
    assert node.words_for(None).question == "Which class?"
    assert node.for_stack("cuda") is node  # a twin without guidance leaves the guidance alone


def test_each_word_comes_from_the_first_twin_in_line_that_has_it():
    """The stack's twin, else the device-neutral one, else the node's own: field by field."""
    neutral = {
        "label": "explicit device error ({category})",
        "label_zh": "明确的设备报错（{category}）",
    }
    cuda_question = {"question": "Which class, by nvidia-smi?"}
    node = parse_tree(
        _with_child_twins(cuda=cuda_question, unknown=neutral), case_ids=frozenset()
    ).node("explicit_error")

    cuda, cpu = node.words_for("cuda"), node.words_for("cpu")
    assert (cuda.question, cuda.label) == (
        "Which class, by nvidia-smi?",
        "explicit device error ({category})",
    )
    assert (cpu.question, cpu.label) == ("Which class?", "explicit device error ({category})")


@pytest.mark.parametrize(
    ("twin", "message"),
    [
        (
            {"label": "explicit error"},
            r"cuda: 'label' must use the node's placeholders \(category\)",
        ),
        (
            {"label": "explicit error ({operator})"},
            r"cuda: 'label' must use the node's placeholders \(category\)",
        ),
        (
            {"question": "Which class is {category}?"},
            r"cuda: 'question' must use the node's placeholders \(none\)",
        ),
        (
            {"label": "explicit error ({category})", "label_zh": "明确报错"},
            r"cuda: 'label_zh' must use the same placeholders as 'label' \(category\)",
        ),
        ({"commands": ["nvidia-smi"]}, r"cuda: expected a mapping with 'guidance', 'question'"),
        (
            {"question": "Which class?", "commands": ["nvidia-smi"]},
            r"cuda: 'commands' go with a 'guidance' of their own",
        ),
        ({"question": ""}, r"cuda: 'question' must be a non-empty string"),
    ],
    ids=[
        "label drops a placeholder",
        "label names another placeholder",
        "question gains a placeholder",
        "chinese label drops a placeholder",
        "no text",
        "commands without guidance",
        "empty question",
    ],
)
def test_a_twin_whose_words_do_not_fit_the_node_is_refused(twin, message):
    with pytest.raises(TreeError, match=rf"node 'explicit_error': {message}"):
        parse_tree(_with_child_twins(cuda=twin), case_ids=frozenset())


def test_the_shipped_twins_word_questions_and_labels_in_both_languages():
    for node in load_tree().nodes.values():
        for twin in filter(None, (node.cuda, node.cpu, node.unknown)):
            assert twin.question is None or twin.question_zh, node.id
            assert twin.label is None or twin.label_zh, node.id


@pytest.mark.parametrize("stack", ["cpu", "cuda"])
@pytest.mark.parametrize(
    "node_id",
    [
        "no_explicit_error",
        "no_processes",
        "stuck_model_construction",
        "hang_leftover_processes",
        "weights_loading",
        "deploy_ranks_missing",
        "hccl_leftover_hccp",
        "env_init_failed",
        "env_numa",
        "device_lost",
        "op_not_registered",
        "config_version_mismatch",
    ],
)
def test_the_shipped_tree_asks_a_gloo_or_cuda_job_in_no_ascend_word(node_id, stack):
    words = load_tree().node(node_id).words_for(stack)
    said = f"{words.question} {words.label}"

    assert not [w for w in (*ASCEND_WORDS, "NPU", "HBM") if w in said], said
