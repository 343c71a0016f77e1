"""The advice a CUDA or gloo job gets names no tool, switch or log only Ascend has: for every
signature a line without an Ascend word can match (its examples show which) and for every
category, the chosen actions are checked in that stack's words. Advice for an error code is
left out: every code the knowledge reads is one torch_npu, CANN or HCCL prints."""

from __future__ import annotations

from collections import defaultdict

import pytest

from analyzers.classify.accelerator import ASCEND, load_stacks
from analyzers.classify.rules import load_knowledge
from analyzers.report.advise import Situation, next_actions
from tests.analyzers.stack_words import ASCEND_ONLY_WORDS, OTHER_STACKS_WORDS

# Signatures whose lines are Ascend's own although no accelerator word shows in the example
# alone: a bundle holding them comes from an Ascend job, whose other lines name the stack.
ASCEND_WORDING = {
    "rt.runtime_call_returned_code": "rtStreamSynchronize and its kin are the Ascend runtime's",
    "env.driver_svm_refused": "devmm's shared-virtual-memory calls are the Ascend driver's",
    "env.dcmi_init_refused": "DCMI is the Ascend driver's management interface",
    "hccl.notify_wait_timeout": "a notify wait is the Ascend runtime's task between streams",
    "hccl.fftsplus_task_timeout": "FFTS+ is the Ascend task scheduler",
    "hccl.links_not_established": "the link table's wording is HCCL's",
    "oom.collective_resource_memory": "the resource record (qp, DeviceMemory) is HCCL's",
    "hang.hccl_heartbeat_stuck": "crimer and informer ranks are HCCL's heartbeat's words",
    "cfg.transfer_engine_start_failed": "smem_trans, hybm and LLMDataDist are Ascend's memory"
    " fabric (the KV pool's own lines get other advice)",
    "oom.xla_resource_exhausted": "HBM there is a TPU's or a GPU's memory, not Ascend's",
}

KNOWLEDGE = load_knowledge()
BOOK = KNOWLEDGE.actions
ASCEND_LINES = next(s for s in load_stacks() if s.name == ASCEND).lines
# every placeholder filled, so no advice is left out for want of a value
FILLED = defaultdict(lambda: "3", ranks_suffix=" (ranks 3)")


def situation(stack: str | None, category: str, signature: str = "", line: str = "") -> Situation:
    return Situation(
        category=category,
        signature_ids=[signature] if signature else [],
        first_error_text=line,
        multi_rank=True,
        values=FILLED,
        accelerator=stack,
    )


SIGNATURE_LINES = [
    pytest.param(rule.id, rule.category, line, id=f"{rule.id}#{n}")
    for rule in KNOWLEDGE.signatures
    if rule.id in BOOK.signatures and rule.id not in ASCEND_WORDING
    for n, line in enumerate(rule.examples)
    if not ASCEND_LINES.search(line)
]


@pytest.mark.parametrize("stack", ["cuda", "cpu"])
@pytest.mark.parametrize(("signature", "category", "line"), SIGNATURE_LINES)
def test_a_cuda_or_gloo_job_is_advised_in_its_own_words(signature, category, line, stack):
    advice = next_actions(BOOK, situation(stack, category, signature, line))

    assert not [a for a in advice if ASCEND_ONLY_WORDS.search(a)]


@pytest.mark.parametrize(("signature", "category", "line"), SIGNATURE_LINES)
def test_a_job_on_no_known_stack_reads_ascend_advice_only_beside_the_other_stacks(
    signature, category, line
):
    advice = next_actions(BOOK, situation(None, category, signature, line))

    for text in advice:
        assert not ASCEND_ONLY_WORDS.search(text) or OTHER_STACKS_WORDS.search(text), text


@pytest.mark.parametrize("stack", ["cuda", "cpu"])
@pytest.mark.parametrize("category", sorted(BOOK.categories))
def test_a_categorys_advice_names_no_ascend_only_word_to_a_cuda_or_gloo_job(category, stack):
    advice = next_actions(BOOK, situation(stack, category))

    assert not [a for a in advice if ASCEND_ONLY_WORDS.search(a)]


@pytest.mark.parametrize("signature", sorted(ASCEND_WORDING))
def test_a_signature_kept_in_ascends_words_has_advice_to_keep(signature):
    assert signature in BOOK.signatures
