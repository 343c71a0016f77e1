"""What the shipped tree shows a job not on Ascend: every node a CUDA or gloo job's walk can
enter speaks in that stack's words (its twin, else the device-neutral one), so its guidance,
commands, switches, question and label name no tool, switch or log only Ascend has. A node
whose `when` cannot hold without Ascend's own evidence is listed with the reason."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from analyzers.classify.accelerator import ASCEND, load_stacks, switches_for
from analyzers.tree.data import Tree, TreeNode
from analyzers.tree.loading import load_tree
from tests.analyzers.stack_words import ASCEND_ONLY_WORDS, OTHER_STACKS_WORDS

# A walk enters these nodes only on evidence that names the bundle's stack Ascend (the
# accelerator's line patterns match it), so the node keeps Ascend's words for every job.
NEEDS_ASCEND_EVIDENCE = {
    "op_inner_error": "its codes (EZ9999, EE9999, EZ9903) are CANN's error-manager headlines",
}

# Nodes written in Ascend's own words (its fused MC2 operators and their HCCL group names, the
# NZ format, aclgraph and NPU graph mode) that a job on any stack can still enter: their
# `when` reads words any job may print, so each other stack reads a twin, not an exemption.
TWINNED = ("hccl_group_name", "mc2_experts_per_rank", "nz_cache_format", "stream_capture_refused")

TREE = load_tree()
STACK_LINES = next(s for s in load_stacks() if s.name == ASCEND).lines


def reachable(tree: Tree, node_id: str) -> Iterator[TreeNode]:
    """The nodes a job not on Ascend can enter: all but the listed ones and their subtrees."""
    node = tree.node(node_id)
    if node_id in NEEDS_ASCEND_EVIDENCE:
        return
    yield node
    for child in node.children:
        yield from reachable(tree, child)


def shown(node: TreeNode, stack: str) -> dict[str, str]:
    """Every text the incident page and the walk's steps show a job on `stack` for `node`."""
    texts, words = node.for_stack(stack), node.words_for(stack)
    return {
        "guidance": texts.guidance,
        "guidance_zh": texts.guidance_zh or "",
        "commands": " | ".join(texts.commands),
        "env": " ".join(switches_for(stack, node.env)),
        "question": words.question,
        "question_zh": words.question_zh or "",
        "label": words.label,
        "label_zh": words.label_zh or "",
    }


def needs_ascend(when: Mapping[str, Any]) -> bool:
    """Whether a `when` holds only on Ascend's own evidence: an npu-smi snapshot or a code
    the accelerator's line patterns read as Ascend's (an `any` needs it on every branch)."""
    parts = []
    for key, arg in when.items():
        if key == "any":
            parts.append(all(needs_ascend(p) for p in arg))
        elif key == "all":
            parts.append(any(needs_ascend(p) for p in arg))
        elif key == "has_code":
            parts.append(all(STACK_LINES.search(code) for code in arg))
        else:
            parts.append(key.startswith("npu_smi.") and arg is True)
    return any(parts)


PATHS = [
    pytest.param(node.id, stack, id=f"{node.id}-{stack}")
    for node in reachable(TREE, TREE.root)
    for stack in ("cuda", "cpu")
]


@pytest.mark.parametrize(("node_id", "stack"), PATHS)
def test_a_cuda_or_gloo_job_is_shown_no_ascend_only_word(node_id, stack):
    said = shown(TREE.node(node_id), stack)

    named = {field: ASCEND_ONLY_WORDS.findall(text) for field, text in said.items()}
    assert not {field: words for field, words in named.items() if words}


@pytest.mark.parametrize("node_id", [node.id for node in reachable(TREE, TREE.root)])
def test_a_job_on_no_known_stack_reads_ascend_words_only_beside_the_other_stacks(node_id):
    """The device-neutral twin names each stack's way; never Ascend's alone."""
    for field, text in shown(TREE.node(node_id), "unknown").items():
        if ASCEND_ONLY_WORDS.search(text):
            assert OTHER_STACKS_WORDS.search(text), field


@pytest.mark.parametrize("stack", ["cuda", "cpu"])
def test_the_verification_checklist_names_no_ascend_only_word_to_a_cuda_or_gloo_job(stack):
    for item in TREE.verification:
        texts = item.for_stack(stack)
        said = " ".join([texts.check, texts.how, texts.check_zh or "", texts.how_zh or ""])
        assert not ASCEND_ONLY_WORDS.findall(said), item.id


@pytest.mark.parametrize("node_id", sorted(NEEDS_ASCEND_EVIDENCE))
def test_a_node_kept_in_ascends_words_needs_ascends_evidence(node_id):
    assert needs_ascend(TREE.node(node_id).when)


@pytest.mark.parametrize("stack", ["cuda", "cpu", "unknown"])
@pytest.mark.parametrize("node_id", TWINNED)
def test_a_node_in_ascends_own_words_speaks_to_another_stack_through_a_twin(node_id, stack):
    node = TREE.node(node_id)

    assert ASCEND_ONLY_WORDS.search(node.guidance)
    assert node.for_stack(stack) is not node
    assert node_id in {n.id for n in reachable(TREE, TREE.root)}


def test_a_twinless_ascend_node_would_be_caught():
    """The walk reaches the hccl nodes from any stack: the collective category is everyone's."""
    assert "hccl_link_setup" in {node.id for node in reachable(TREE, TREE.root)}
    assert not needs_ascend(TREE.node("hccl_link_setup").when)
