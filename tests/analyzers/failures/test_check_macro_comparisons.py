"""Native check macros of the glog kind print the comparison that failed with both values
(`Check failed: a == b (1 vs. 6)`), and a paste often keeps only `a == b (1 vs. 6) : message`,
with no level and no error word (docs/labelling.md#a-native-assertion-no-rule-knows). When the
compared value is a property of a tensor the caller handed a kernel binding, the op refused its
input (docs/labelling.md#a-kernel-library-that-refuses-a-tensor-it-was-handed)."""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BINDING_CHECK = """\
(EngineCore_DP0 pid=4410) INFO 08-11 10:02:10 [cuda.py:412] Using TRTLLM BF16 MoE backend.
expert_indices.size(1) == args->top_k (1 vs. 6) : expert_indices dim1 must match top_k.
"""

PLAIN_VALUES_CHECK = """\
num_tokens <= max_tokens_per_rank (9000 vs. 8192) : dispatch buffer too small
"""


def test_a_binding_check_on_a_tensor_is_the_operator_refusing_its_input() -> None:
    diagnosis = diagnose_text("serve.log", BINDING_CHECK)
    assert_reads(diagnosis, "operator", first_error="must match top_k", beside=("shape_mismatch",))


def test_a_check_on_plain_values_is_a_native_assertion() -> None:
    diagnosis = diagnose_text("serve.log", PLAIN_VALUES_CHECK)
    assert_reads(diagnosis, "other", first_error="9000 vs. 8192")


def test_a_comparison_in_prose_is_no_failure() -> None:
    text = "INFO throughput 1.9x higher (410 vs. 215) with the new kernel\n"
    diagnosis = diagnose_text("bench.log", text)
    assert diagnosis.first_error is None


# A vendor binding's check of its kernel call's return code, with the op's name after the
# operands; the engine's start-up wrapper follows it.
RETURN_CODE_CHECK = """\
  File "plugin/attention/backend.py", line 512, in forward
    xpu_ops.paged_decode_attention(
ValueError: Check 0 == ret failed, left operand=0, paged_decode_attention failed
RuntimeError: Engine core initialization failed.
"""

RETURN_CODE_CHECK_WITHOUT_OP = """\
  File "plugin/attention/backend.py", line 512, in forward
    xpu_ops.paged_decode_attention(
ValueError: Check 0 == ret failed, left operand=0
"""


def test_a_binding_return_code_check_naming_its_op_is_the_operator() -> None:
    diagnosis = diagnose_text("serve.log", RETURN_CODE_CHECK)
    assert_reads(diagnosis, "operator", first_error="paged_decode_attention failed")
    assert {"op_constraint", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_return_code_check_that_names_no_op_is_not_the_operator() -> None:
    diagnosis = diagnose_text("serve.log", RETURN_CODE_CHECK_WITHOUT_OP)
    assert diagnosis.category != "operator", diagnosis.root_cause
