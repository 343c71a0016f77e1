"""A model dimension that the chosen parallel size cannot share out, worded with the engine's
short setting names (`ep_size=3`, `tp_size (6)`), and a block-quantized weight whose per-rank
slice does not fit the quantization block (docs/labelling.md#a-bare-divisibility-assertion).
Deployment tools that derive an expert layout from the tensor-parallel size check that two
short-named sizes multiply to a third (`ep_size * moe_tp_size must equal tp_size`, or the same
check in Chinese, `... 的乘积必须等于 tp_size`): the same launch settings, `config`."""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

EXPERTS_OVER_EP = """\
(Worker_DP2_EP2 pid=1216) ERROR 08-15 08:18:38 multiproc_executor.py:912]   File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models/moe_model.py", line 631, in _init_experts
(Worker_DP2_EP2 pid=1216) ERROR 08-15 08:18:38 multiproc_executor.py:912]     assert self.n_physical_experts % self.ep_size == 0, (
(Worker_DP2_EP2 pid=1216) ERROR 08-15 08:18:38 multiproc_executor.py:912] AssertionError: n_physical_experts=256 must be divisible by ep_size=3. Adjust num_redundant_experts.
(EngineCore_DP2 pid=541) INFO 08-15 08:18:38 multiproc_executor.py:440] [shutdown] Executor: waiting for worker exit count=1
(Worker_DP1_EP1 pid=1217) ERROR 08-15 08:18:38 multiproc_executor.py:912] WorkerProc failed to start.
"""

FP8_BLOCK = """\
(EngineCore_DP0 pid=4410) ERROR 06-08 10:02:11 [core.py:866]   File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/quantization/fp8.py", line 402, in create_weights
(EngineCore_DP0 pid=4410) ERROR 06-08 10:02:11 [core.py:866]     validate_fp8_block_shape(
(EngineCore_DP0 pid=4410) ERROR 06-08 10:02:11 [core.py:866] ValueError: The output_size of gate's and up's weight = 96 is not divisible by weight quantization block_n = 128.
"""


def test_experts_that_the_ep_size_cannot_share_are_the_launch_settings() -> None:
    diagnosis = diagnose_text("serve.log", EXPERTS_OVER_EP)
    assert_reads(diagnosis, "config", first_error="must be divisible by ep_size=3")


def test_the_vocabulary_check_in_short_spelling_keeps_its_loading_reading() -> None:
    text = "AssertionError: vocab_size 131125 must be divisible by tp_size 8; pad the vocabulary\n"
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.category == "weight_load", diagnosis.root_cause


def test_a_block_quantized_slice_that_misses_the_block_is_weight_loading() -> None:
    diagnosis = diagnose_text("serve.log", FP8_BLOCK)
    assert_reads(diagnosis, "weight_load", first_error="block_n = 128")


PRODUCT_IN_CHINESE = """\
  File "/opt/deploy/convert/parallel.py", line 48, in check_layout
    assert moe_ep_size * moe_tp_size == tp_size, msg
AssertionError: moe_ep_size 与 moe_tp_size 的乘积应等于 tp_size（当前 2 x 2，tp_size 为 8）
"""

PRODUCT_IN_ENGLISH = (
    "ValueError: ep_size * moe_tp_size must equal tp_size (got 4 * 1 for tp_size 8)\n"
)


def test_parallel_sizes_whose_product_must_equal_another_are_the_launch_settings() -> None:
    for text in (PRODUCT_IN_CHINESE, PRODUCT_IN_ENGLISH):
        diagnosis = diagnose_text("convert.log", text)
        assert_reads(
            diagnosis, "config", first_error="moe_tp_size", rule="cfg.parallel_sizes_product"
        )


def test_sizes_that_multiply_out_are_no_failure() -> None:
    text = (
        "INFO layout: ep_size=4, moe_tp_size=2, tp_size=8 (ep_size * moe_tp_size equals tp_size)\n"
    )
    assert diagnose_text("convert.log", text).first_error is None
