"""Attention ops that bound the ratio of query heads to key/value heads, and matmul operand checks.

docs/labelling.md#an-operator-name-decides-nothing: a documented head-count limit of an op is
`op_constraint`, with `operator` beside it; the check is the first error.
docs/labelling.md#shape-inference-that-finds-the-inputs-disagree: an aclnn op's host check that
quotes two shapes that disagree stays `operator`, with `shape_mismatch` beside it. Values of our
own in the real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

HEAD_RATIO = """\
[rank2]: RuntimeError: call aclnnPromptFlashAttentionV3 failed, detail:EZ1001: [PID: 5150] 2026-03-04-05:06:07.080.090 PromptFlashAttention LaunchAicore failed.
[rank2]:         TraceBack (most recent call last):
[rank2]:         numHeads / numKeyValueHeads = 80, cannot be larger than 64[FUNC:SetTilingHeadNumRatio][FILE:prompt_flash_attention_tiling.cpp][LINE:1460]
[rank2]:         Tiling failed
[rank2]:         PromptFlashAttention LaunchAicore failed.
"""

# A ratio the op accepts, printed as a note, is no refusal.
HEAD_RATIO_NOTE = """\
[rank2]: RuntimeError: call aclnnPromptFlashAttentionV3 failed, detail:EZ1001: [PID: 5150] 2026-03-04-05:06:07.080.090 PromptFlashAttention LaunchAicore failed.
[rank2]:         numHeads / numKeyValueHeads = 8, within the kernel's limit
"""


def test_a_head_ratio_over_the_ops_limit_is_an_op_constraint() -> None:
    diagnosis = diagnose_text("worker.log", HEAD_RATIO)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="numHeads / numKeyValueHeads = 80, cannot be larger than 64",
        rule="opc.head_num",
        beside=("operator",),
    )


def test_a_head_ratio_within_the_limit_is_not_the_constraint() -> None:
    diagnosis = diagnose_text("worker.log", HEAD_RATIO_NOTE)
    assert diagnosis.category == "operator", diagnosis.root_cause


K_AXIS = """\
  File "/opt/app/quant/linear.py", line 88, in forward
    out = torch.matmul(x, w.t())
RuntimeError: call aclnnMatmul failed, detail:EZ1001: [PID: 2903] 2026-04-05-06:07:08.090.101 The k-axis of the two inputs are different [2,7,2048], [512,2048]

[ERROR] 2026-04-05-06:07:08 (PID:2903, Device:0, RankID:-1) ERR01100 OPS call acl api failed
"""


def test_a_matmul_quoting_two_contracted_axes_that_differ_offers_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("run.log", K_AXIS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="The k-axis of the two inputs are different [2,7,2048], [512,2048]",
        rule="op.tensor_shapes_disagree",
        beside=("shape_mismatch",),
    )
    assert "shape_mismatch" in alternative_labels(diagnosis)
