"""FP8 and MX training libraries: block sizes a tensor does not fill, and cards without FP8.

Low-precision GEMMs and quantizers work on fixed blocks (FP8 tensor cores on multiples of 8 and
16, the MX formats on runs of 32 values) and refuse a tensor that is no whole number of them:
the format's limit, `op_constraint`, with `operator` and `config` beside it.
docs/labelling.md#a-kernel-tile-that-the-split-dimension-does-not-fill. Transformer Engine also
refuses FP8 on a card whose compute capability lacks it: `config`, with `driver_env` beside it.
docs/labelling.md#a-precision-the-device-does-not-offer. Excerpts of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

MXFP8_SEQUENCE_PARALLEL = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/opt/megatron/core/extensions/transformer_engine.py", line 410, in forward
[rank3]:     out = super().forward(x, is_first_microbatch=_is_first_microbatch)
[rank3]:   File "/usr/local/lib/python3.12/dist-packages/transformer_engine/pytorch/module/linear.py", line 1300, in forward
[rank3]:     out = linear_fn(*args)
[rank3]: RuntimeError: /opt/te/transformer_engine/pytorch/csrc/quantizer.cpp:412 in function create_tensor: Assertion failed: flat_first_dim % MXFP8_BLOCK_SIZE == 0. MXFP8 requires tensor dims that are divisible by 32 (got shape=(1000, 4096))
"""


def test_an_mxfp8_shard_that_is_no_whole_number_of_blocks_is_the_formats_limit() -> None:
    diagnosis = diagnose_files({"rank3.log": MXFP8_SEQUENCE_PARALLEL})
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="MXFP8_BLOCK_SIZE",
        rule="opc.low_precision_block_divisibility",
    )
    assert {"operator", "config"} <= {a.category for a in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


TORCHAO_MX_BACKWARD = """\
    File "/opt/ao/torchao/prototype/mx_formats/mx_tensor.py", line 140, in to_mx
      assert data_hp.shape[-1] % block_size == 0, (
  AssertionError: the last dimension of shape torch.Size([2048, 48]) must be divisible by block_size 32
"""


def test_torchao_mx_block_check_is_the_formats_limit() -> None:
    diagnosis = diagnose_files({"train.log": TORCHAO_MX_BACKWARD})
    assert_reads(diagnosis, "op_constraint", first_error="block_size 32")


def test_te_fp8_gemm_dims_are_the_formats_limit() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "[rank0]: AssertionError: FP8 execution requires 2D input matrices with height divisible "
        "by 8 and width divisible by 16, but got tensor with dims=[640, 1000]\n",
    )
    assert diagnosis.category == "op_constraint"
    assert "opc.low_precision_block_divisibility" in rules_of(diagnosis)


FLOAT8_TP_FIRST_OPERAND = """\
[rank3]: RuntimeError: Expected trailing dimension of mat1 to be divisible by 16 but got mat1 shape: (64x24).
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/train/fp8_tp_step.py", line 88, in <module>
[rank0]:     loss.backward()
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/_tensor.py", line 631, in backward
[rank0]:     torch.autograd.backward(
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torchao/float8/float8_training_tensor.py", line 374, in __torch_dispatch__
[rank0]:     return FLOAT8_OPS_TABLE[func](func, args, kwargs)
"""


def test_a_scaled_matmul_refusing_its_first_operand_is_the_formats_limit() -> None:
    diagnosis = diagnose_files({"rank0.log": FLOAT8_TP_FIRST_OPERAND})
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="trailing dimension of mat1",
        rule="opc.low_precision_block_divisibility",
    )
    assert {"operator", "config"} <= {a.category for a in diagnosis.alternatives}


def test_operands_that_do_not_chain_are_not_the_formats_limit() -> None:
    diagnosis = diagnose_text(
        "rank0.log", "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x24 and 32x16)\n"
    )
    assert "opc.low_precision_block_divisibility" not in rules_of(diagnosis)


def test_a_model_setting_checked_against_a_block_size_is_not_the_format() -> None:
    diagnosis = diagnose_text(
        "rank0.log", "ValueError: hidden_size 5120 must be divisible by block_size 96\n"
    )
    assert "opc.low_precision_block_divisibility" not in rules_of(diagnosis)


def test_a_card_without_fp8_is_the_precision_setting() -> None:
    diagnosis = diagnose_text(
        "rank1.log",
        "[rank1]:     assert fp8_available, reason_for_no_fp8\n"
        "[rank1]: AssertionError: Device compute capability 8.9 or higher required for FP8 "
        "execution.\n",
    )
    assert_reads(
        diagnosis,
        "config",
        first_error="required for FP8 execution",
        rule="cfg.fp8_not_offered_by_device",
        beside=("driver_env",),
    )


def test_a_layer_kept_in_bf16_for_want_of_fp8_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "rank1.log",
        "INFO: device compute capability 8.6, FP8 execution not available; running in bf16\n",
    )
    assert "cfg.fp8_not_offered_by_device" not in rules_of(diagnosis)
