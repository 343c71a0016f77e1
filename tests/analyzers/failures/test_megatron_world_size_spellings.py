"""Megatron-core's refusal of a world size, in the spellings of its releases.

docs/labelling.md#a-bare-divisibility-assertion. The parallel-state set-up spells the size
`world_size` and ends with either the product of the model-parallel sizes as a bare number or
the expert grouping by name; both are a launch that does not fit the layout (`config`). The
fixtures are in the shapes these releases print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BARE_PRODUCT = """\
[rank0]:   File "/opt/megatron-lm/megatron/core/parallel_state.py", line 530, in initialize_model_parallel
[rank0]:     raise RuntimeError(f"world_size ({world_size}) is not divisible by {total_model_size}")
[rank0]: RuntimeError: world_size (2) is not divisible by 4
"""

EXPERT_GROUPING = """\
1:   File "/opt/megatron-lm/megatron/core/parallel_state.py", line 781, in initialize_model_parallel
1:     raise RuntimeError(
1: RuntimeError: decoder world_size (6) is not divisible by expert_tensor_model_pipeline_parallel size (4)
"""

# Counterexample: a log line that goes on after the number is no refusal of the layout.
FREE_TEXT = """\
INFO planner: world_size (4) is not divisible by 8 ranks per node; padding the last node
"""


def test_the_bare_product_spelling_is_a_layout_that_does_not_fit() -> None:
    diagnosis = diagnose_text("logs/pretrain.log", BARE_PRODUCT)
    assert_reads(diagnosis, "config", first_error="world_size (2) is not divisible by 4")


def test_the_expert_grouping_spelling_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/pretrain.log", EXPERT_GROUPING)
    assert_reads(diagnosis, "config", first_error="expert_tensor_model_pipeline_parallel size")


def test_a_line_that_goes_on_after_the_number_is_not_the_refusal() -> None:
    diagnosis = diagnose_text("logs/pretrain.log", FREE_TEXT)
    assert diagnosis.category != "config" or diagnosis.first_error is None
