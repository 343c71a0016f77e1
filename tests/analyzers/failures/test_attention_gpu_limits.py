"""An attention kernel's limit that names the GPUs it needs for a head size.

docs/labelling.md#an-operator-name-decides-nothing: FlashAttention's backward pass for large
heads needs more shared memory than some cards have, and its check says which GPUs it needs
past which head size. That is the kernel's documented limit (`op_constraint`, with `config`
beside it: another card, smaller heads, another attention path). Values are our own in the
library's real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

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


def test_a_card_older_than_the_library_supports_is_the_setup() -> None:
    # docs/labelling.md#a-precision-the-device-does-not-offer: the kernel library names the
    # oldest GPU generation it runs on; a serving worker re-raises it under its own headline.
    text = (
        "ERROR 03-02 10:11:12 engine.py:140] RuntimeError: Error in model execution (input dumped"
        " to /tmp/in.pkl): FlashAttention only supports Ampere GPUs or newer.\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.kernel_library_gpu_generation_too_old" in rules_of(diagnosis)
    assert {"operator", "driver_env"} & set(alternative_labels(diagnosis))


def test_a_library_that_lists_newer_cards_only_as_a_speedup_has_not_failed() -> None:
    text = (
        "INFO flash kernels only support Ampere GPUs or newer; using the sdpa path on this card\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert "cfg.kernel_library_gpu_generation_too_old" not in rules_of(diagnosis)
