"""CUDA's `invalid device function`: the loaded build has no function for this card.

An NCCL bundled for an older CUDA logs it at its first kernel launch; a model kernel raises it
as a CUDA error. Either way the build does not fit the GPU (`config`), like a missing kernel
image; the collective layer that printed it is only where it surfaced.
docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NCCL_FIRST_LAUNCH = """\
node-3:7741:7741 [0] NCCL INFO Bootstrap : Using eth0:10.2.0.5<0>
NCCL version 2.4.8+cuda10.1
node-3:7741:7770 [0] NCCL INFO Using 256 threads, Min Comp Cap 8, Trees disabled
node-3:7742:7771 [1] NCCL INFO comm 0x7f0a3c002a10 rank 1 nranks 2 cudaDev 1 nvmlDev 1 - Init COMPLETE

node-3:7742:7742 [1] enqueue.cc:197 NCCL WARN Cuda failure 'invalid device function'
node-3:7742:7742 [1] NCCL INFO misc/group.cc:148 -> 1
"""

MODEL_KERNEL = """\
[rank0]:   File "/opt/app/model.py", line 51, in forward
[rank0]:     return self.proj(x)
[rank0]: RuntimeError: CUDA error: invalid device function
"""


def test_nccl_finding_no_function_for_the_card_is_the_build() -> None:
    diagnosis = diagnose_text("eval.log", NCCL_FIRST_LAUNCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="'invalid device function'",
        rule="cfg.cuda_invalid_device_function",
        beside=("driver_env",),
    )


def test_a_model_kernel_with_no_function_for_the_card_is_the_build() -> None:
    diagnosis = diagnose_text("train.log", MODEL_KERNEL)
    assert diagnosis.category == "config"
    assert "cfg.cuda_invalid_device_function" in rules_of(diagnosis)


def test_another_cuda_answer_inside_nccl_keeps_the_collective_reading() -> None:
    text = NCCL_FIRST_LAUNCH.replace("'invalid device function'", "1 'invalid argument'")
    diagnosis = diagnose_text("eval.log", text)
    assert diagnosis.category == "hccl"
    assert "cfg.cuda_invalid_device_function" not in rules_of(diagnosis)
