"""CUDA refuses a kernel launch whose blocks ask for more registers, threads or shared memory
than one multiprocessor of this card offers (`too many resources requested for launch`,
cudaErrorLaunchOutOfResources). The kernel's launch configuration does not fit the card, so the
launch is the op's own failure: `operator`, with the device and the build beside it
(docs/labelling.md#a-kernel-launch-over-the-block-limit).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A two-rank fine-tuning run of a vision-language model on older cards: rank 0's forward step
# launches a fused rotary kernel whose block is too large for the card, torchrun follows.
RANKED_FORWARD = """\
[rank0]:   File "/opt/env/lib/python3.10/site-packages/flash_attn/layers/rotary.py", line 121, in apply_rotary
[rank0]:     rotary_kernel[grid](
[rank0]: RuntimeError: CUDA error: too many resources requested for launch
[rank0]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
E0611 09:12:44.201000 3301 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 3310) of binary: /opt/env/bin/python
"""

# The same refusal as a reporter retells it in an issue title, with the newer exception type.
TITLE_ONLY = (
    "训练报错：torch.AcceleratorError: CUDA error: too many resources requested for launch\n"
)

# Counterexample: a memory exhaustion on the device is another failure with its own reading.
DEVICE_OOM = """\
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB. GPU 0 has a total capacity of 15.77 GiB of which 310.00 MiB is free.
"""


def test_the_refused_launch_is_the_ops_failure_with_the_device_and_build_beside_it() -> None:
    diagnosis = diagnose_text("logs/train.log", RANKED_FORWARD)
    assert_reads(diagnosis, "operator", first_error="too many resources requested for launch")
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert {"device_fault", "config"} <= alternatives


def test_a_retold_title_is_read_the_same() -> None:
    diagnosis = diagnose_text("issue_title.txt", TITLE_ONLY)
    assert diagnosis.category == "operator", diagnosis.root_cause


def test_a_device_out_of_memory_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("logs/train.log", DEVICE_OOM)
    assert diagnosis.category == "oom", diagnosis.root_cause
