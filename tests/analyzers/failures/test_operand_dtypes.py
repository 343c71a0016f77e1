"""A kernel refusing operands whose dtypes disagree.

docs/labelling.md#operands-of-different-dtypes: torch's check that one call's inputs share a
scalar type (`expected scalar type Float but found Half`) and the matmul family's same-dtype
check refuse the op on the host: `operator`, with `config` (the precision setup) beside it.
autograd's refusal to store a gradient of another dtype than the parameter keeps is no op's
refusal: a sharding wrapper's precision setup, `config`, with `other` beside it.

The fixture is written in the shape of two ranks' tracebacks interleaved in one stderr, as a
DeepSpeed half-precision run prints them, with paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

INTERLEAVED = """\
RuntimeError: expected scalar type Float but found Half
    result = self.forward(*input, **kwargs)
  File "/opt/venv/lib/python3.9/site-packages/torch/nn/modules/normalization.py", line 190, in forward
    return F.layer_norm(
  File "/srv/vision/gpt.py", line 31, in forward
    x = self.norm_1(x)
RuntimeError: expected scalar type Float but found Half
"""


def test_operands_of_two_dtypes_are_the_operator_with_the_precision_setup_beside_it() -> None:
    diagnosis = diagnose_text("stderr.log", INTERLEAVED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="expected scalar type Float but found Half",
        beside=("config",),
    )


def test_the_matmul_wording_of_the_same_check_reads_alike() -> None:
    text = (
        "[rank0]: RuntimeError: expected mat1 and mat2 to have the same dtype, but got:"
        " c10::Half != float\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "operator", diagnosis.root_cause


# Scaled-dot-product attention checks that a float mask has the query's dtype before it runs.
# A diffusion runtime on an NPU reports the refusal in its stage line, and torch_npu prints its
# `ERR01007 OPS feature not supported` summary after it; the summary only restates the refusal.
# Fixture in the shape of such a stage runner's console, with values of our own.
MASK_DTYPE_STAGE = """\
[03-14 08:09:10] [TextEncodingStage] started...
[03-14 08:09:11] [TextEncodingStage] Error during execution after 233.5120 ms: Expected attn_mask dtype to be bool or to match query dtype, but got attn_mask.dtype: float and  query.dtype: c10::BFloat16 instead.
[ERROR] 2026-03-14-08:09:11 (PID:4410, Device:0, RankID:0) ERR01007 OPS feature not supported
Traceback (most recent call last):
  File "/srv/gen/stages/base.py", line 120, in __call__
    result = self.forward(batch, args)
"""


def test_an_attention_mask_of_another_dtype_is_the_first_error_not_the_summary() -> None:
    diagnosis = diagnose_text("gen/console.log", MASK_DTYPE_STAGE)
    assert_reads(
        diagnosis, "operator", first_error="Expected attn_mask dtype to be bool", beside=("config",)
    )


def test_a_mask_cast_that_is_only_reported_is_no_error() -> None:
    text = "[03-14 08:09:10] INFO attention: attn_mask dtype float cast to query dtype bfloat16\n"
    diagnosis = diagnose_text("gen/console.log", text)
    assert diagnosis.first_error is None or "attn_mask" not in diagnosis.first_error.text


# A sharded run's backward under a bf16 policy: autograd refuses to store the bf16 gradient
# into a parameter that declared fp32 gradients, and the rank's traceback ends there.
GRADIENT_DTYPE = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/train/loop.py", line 88, in step
[rank1]:     loss.backward()
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/autograd/__init__.py", line 354, in backward
[rank1]:     _engine_run_backward(
[rank1]: RuntimeError: attempting to assign a gradient with dtype 'c10::BFloat16' to a tensor with grad_dtype 'Float'. Set grad_dtype to None to allow any dtype.
"""

# Counterexample: the same sentence about sizes is a shape, not the precision setup.
GRADIENT_SIZE = """\
[rank1]: RuntimeError: attempting to assign a gradient of size [4096] to a tensor of size [1024]. Please ensure that the gradient and the tensor are the same size
"""


def test_a_gradient_of_another_dtype_than_its_parameter_is_the_precision_setup() -> None:
    diagnosis = diagnose_text("rank1.log", GRADIENT_DTYPE)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.gradient_dtype_refused" in rules
    assert diagnosis.first_error is not None
    assert "to a tensor with grad_dtype 'Float'" in diagnosis.first_error.text
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_gradient_of_another_size_is_not_the_precision_rule() -> None:
    diagnosis = diagnose_text("rank1.log", GRADIENT_SIZE)
    rules = rules_of(diagnosis)
    assert "cfg.gradient_dtype_refused" not in rules


# Newer releases word the matmul family's check with the call's own operand names (`self` is
# addmm's accumulator). A low-rank adapter's hand-written backward under a sharding wrapper's
# bf16 policy meets it when the incoming gradient stays fp32. Fixture in the shape of one rank's
# traceback in a launcher's console, with paths and dtypes of our own.
ADAPTER_BACKWARD = """\
[rank6]: Traceback (most recent call last):
[rank6]:   File "/srv/tune/run_sft.py", line 212, in train_step
[rank6]:     loss.backward()
[rank6]:   File "/srv/tune/adapters/low_rank.py", line 141, in backward
[rank6]:     grad_in.addmm_(grad_up, down_w, beta=0, alpha=scaling)
[rank6]: RuntimeError: self and mat2 must have the same dtype, but got Half and Float
"""


def test_the_operand_names_of_the_call_read_like_the_matmul_wording() -> None:
    diagnosis = diagnose_text("console.log", ADAPTER_BACKWARD)
    assert_reads(
        diagnosis,
        "operator",
        first_error="self and mat2 must have the same dtype",
        beside=("config",),
    )


def test_an_adapter_that_only_reports_its_cast_is_no_error() -> None:
    text = (
        "[rank6]: DEBUG low_rank backward: self and mat2 cast to one dtype (Half) before addmm_\n"
    )
    diagnosis = diagnose_text("console.log", text)
    assert diagnosis.first_error is None or "mat2" not in diagnosis.first_error.text


# A quantized MoE kernel's Python wrapper asserts that the activations and the checkpoint's
# scales share a dtype before it launches, naming both tensors; a scheduler rank of a serving
# engine prints it, and a paste wraps it after the first tensor (names of our own).
WRAPPER_ASSERTION = """\
[2026-05-14 09:12:40 TP1] Prefill batch. #new-seq: 1, #new-token: 512
  File "/opt/venv/lib/python3.12/site-packages/engine/layers/moe/int4_moe.py", line 141, in fused_int4_moe
    assert hidden_states.dtype == w1_scale.dtype, (
AssertionError: fused_int4_moe assumes hidden_states.dtype (torch.bfloat16) == w1_scale.dtype (torch.float16)
[2026-05-14 09:12:40 TP1] Scheduler hit an exception: Traceback (most recent call last):
"""

WRAPPED_ASSERTION = """\
AssertionError: grouped_w4a16_gemm assumes x.dtype
(torch.bfloat16) == b_scales.dtype (torch.float16)
"""

# The same words as a statement of what the kernel expects, in a startup line, are no error.
WRAPPER_NOTE = """\
INFO 05-14 09:10:02 [int4_moe.py:60] fused_int4_moe assumes hidden_states.dtype is bfloat16 when no dtype is given
INFO 05-14 09:10:03 [engine.py:210] engine ready
"""


def test_a_kernel_wrappers_dtype_assertion_is_the_operator() -> None:
    diagnosis = diagnose_text("scheduler.log", WRAPPER_ASSERTION)
    assert_reads(
        diagnosis, "operator", first_error="assumes hidden_states.dtype", beside=("config",)
    )


def test_the_assertion_wrapped_after_the_first_tensor_reads_alike() -> None:
    diagnosis = diagnose_text("paste.log", WRAPPED_ASSERTION)
    assert_reads(diagnosis, "operator", first_error="assumes x.dtype")


def test_a_startup_note_of_what_the_kernel_assumes_is_no_error() -> None:
    diagnosis = diagnose_text("engine.log", WRAPPER_NOTE)
    assert diagnosis.category != "operator", diagnosis.root_cause


# Paddle (2.6 and later) promotes dtypes implicitly only between floating types and between a
# complex and a real type; any other pair of operand dtypes is refused by the op with Paddle's
# typed enforce error (`(InvalidType) Type promotion only support ... But got different data
# type x: ..., y: ...`). The same refusal as torch's scalar-type check. Fixture in the shape of
# a fine-tuning worker under Paddle's launcher, with paths and values of our own.
PADDLE_PROMOTION = """\
W0412 10:20:30.405060  7711 multiply_fwd_func.cc:80] got different data type, run type promotion automatically, this may cause data type been changed.
Traceback (most recent call last):
  File "/work/tune/run.py", line 61, in <module>
    main()
  File "/work/tune/moe/router.py", line 212, in forward
    capacity = paddle.minimum(counts, limit)
  File "/usr/lib/python3.10/site-packages/paddle/tensor/math.py", line 880, in minimum
    return _C_ops.minimum(x, y)
TypeError: (InvalidType) Type promotion only support calculations between floating-point numbers and between complex and real numbers. But got different data type x: int32, y: int64. (at /paddle/paddle/phi/common/type_promotion.h:230)

LAUNCH INFO 2026-04-12 10:20:33,100 Pod failed
LAUNCH ERROR 2026-04-12 10:20:33,101 Container failed !!!
"""


def test_paddles_refused_type_promotion_is_operands_of_two_dtypes() -> None:
    diagnosis = diagnose_text("log/workerlog.0", PADDLE_PROMOTION)
    assert_reads(
        diagnosis, "operator", first_error="Type promotion only support", beside=("config",)
    )


def test_paddles_warning_that_it_promoted_by_itself_is_no_refusal() -> None:
    text = (
        "W0412 10:20:30.405060  7711 multiply_fwd_func.cc:80] got different data type, run type"
        " promotion automatically, this may cause data type been changed.\n"
    )
    diagnosis = diagnose_text("log/workerlog.0", text)
    assert diagnosis.first_error is None or "promotion" not in diagnosis.first_error.text
