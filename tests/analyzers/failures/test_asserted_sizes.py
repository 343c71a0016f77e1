"""An assertion whose message quotes two tensor sizes that differ.

docs/labelling.md#an-assertion-that-quotes-two-shapes-that-differ: code that asserts two
tensors agree and prints both sizes when they do not (`a.shape: torch.Size([...]),
b.shape: torch.Size([...])`, `torch.Size([...]) != torch.Size([...])`) found dimensions that
disagree: `shape_mismatch`, with a framework bug (`other`) beside it, the message being the
first error. Sizes that agree mean the assertion failed on something else; the same sizes
printed by a debug line are no failure; a weight loader's assertion of the same form keeps the
loader's label. Fixtures are a trainer worker's traceback and an RL worker's Ray lines, with
paths and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

MASK_AND_OUTPUT = """\
Traceback (most recent call last):
  File "/srv/rl/trainer/engine/attention_utils.py", line 212, in postprocess
    assert logits.shape[:2] == mask.shape, f"logits.shape: {logits.shape}, mask.shape: {mask.shape}"
AssertionError: logits.shape: torch.Size([1, 304]), mask.shape: torch.Size([1, 1, 304, 304])
"""

INEQUALITY_IN_RAY = """\
(WorkerDict pid=52117) Traceback (most recent call last):
(WorkerDict pid=52117)   File "/srv/rl/workers/actor/dp_actor.py", line 388, in _forward_micro_batch
(WorkerDict pid=52117)     assert hidden.shape == ref.shape, f"{hidden.shape} != {ref.shape}"
(WorkerDict pid=52117) AssertionError: torch.Size([2, 640, 896]) != torch.Size([2, 512, 896])
"""

SAME_SIZES = """\
Traceback (most recent call last):
  File "/srv/rl/trainer/engine/attention_utils.py", line 230, in check_inputs
    assert q.dtype == k.dtype, f"q.shape: {q.shape}, k.shape: {k.shape}, {q.dtype} vs {k.dtype}"
AssertionError: q.shape: torch.Size([2, 8, 128]), k.shape: torch.Size([2, 8, 128]), torch.bfloat16 vs torch.float16
"""

DEBUG_PRINT = """\
step 12 logits.shape: torch.Size([1, 304]), mask.shape: torch.Size([1, 1, 304, 304])
step 12 loss 2.4410
"""

LOADER_SIZES = """\
[rank1]: AssertionError: Attempted to load weight (torch.Size([6144])) into parameter (torch.Size([3072]))
"""


def test_an_assertion_quoting_two_different_sizes_is_a_shape_mismatch() -> None:
    for text in (MASK_AND_OUTPUT, INEQUALITY_IN_RAY):
        diagnosis = diagnose_text("worker.log", text)
        assert diagnosis.category == "shape_mismatch", diagnosis.root_cause
        assert diagnosis.first_error is not None
        assert "AssertionError: " in diagnosis.first_error.text
        assert "torch.Size([" in diagnosis.first_error.text
        assert "shape.asserted_sizes_differ" in rules_of(diagnosis)
        assert "other" in {a.category for a in diagnosis.alternatives}


def test_the_message_outranks_the_statement_quoted_above_it() -> None:
    diagnosis = diagnose_text("worker.log", MASK_AND_OUTPUT)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith(
        "AssertionError: logits.shape: torch.Size([1, 304])"
    )


def test_sizes_that_agree_are_not_this_reading() -> None:
    diagnosis = diagnose_text("worker.log", SAME_SIZES)
    assert "shape.asserted_sizes_differ" not in rules_of(diagnosis)


def test_the_same_sizes_in_a_debug_print_are_no_failure() -> None:
    diagnosis = diagnose_text("train.log", DEBUG_PRINT)
    assert diagnosis.category != "shape_mismatch"


def test_a_weight_loaders_assertion_keeps_the_loaders_label() -> None:
    diagnosis = diagnose_text("worker.log", LOADER_SIZES)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
