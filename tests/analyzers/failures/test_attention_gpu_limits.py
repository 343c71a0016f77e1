"""An attention kernel's limit that names the GPUs it needs for a head size.

docs/labelling.md#an-operator-name-decides-nothing: FlashAttention's backward pass for large
heads needs more shared memory than some cards have, and its check says which GPUs it needs
past which head size. That is the kernel's documented limit (`op_constraint`, with `config`
beside it: another card, smaller heads, another attention path). Values are our own in the
library's real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

BACKWARD_ON_A_SMALLER_CARD = """\
[rank5]:   File "/opt/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 120, in _flash_attn_backward
[rank5]:     dq, dk, dv, softmax_d, = flash_attn_cuda.bwd(
[rank5]: RuntimeError: FlashAttention backward for head dim > 192 requires A100/A800 or H100/H800
"""


def test_a_head_size_the_card_cannot_train_is_the_kernels_limit() -> None:
    diagnosis = diagnose_text("rank5.log", BACKWARD_ON_A_SMALLER_CARD)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="requires A100/A800 or H100/H800",
        rule="opc.head_dim_needs_gpu",
        beside=("config",),
    )


def test_the_older_wording_with_the_shared_memory_reason_reads_the_same() -> None:
    text = (
        "RuntimeError: FlashAttention backward for head dim > 64 requires A100 or H100 GPUs as "
        "the implementation needs a large amount of shared memory.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "op_constraint"


def test_a_card_too_old_for_the_library_is_not_a_head_size_limit() -> None:
    text = "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"
    diagnosis = diagnose_text("train.log", text)
    assert "opc.head_dim_needs_gpu" not in rules_of(diagnosis)
