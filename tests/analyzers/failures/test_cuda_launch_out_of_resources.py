"""CUDA refuses a kernel launch whose blocks ask for more registers, threads or shared memory
than one multiprocessor of this card offers (`too many resources requested for launch`,
cudaErrorLaunchOutOfResources). The kernel's launch configuration does not fit the card, so the
launch is the op's own failure: `operator`, with the device and the build beside it
(docs/labelling.md#a-kernel-launch-over-the-block-limit).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

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


# Triton's own launcher (2.x) passes the driver's refusal of a launch on with the driver's word
# for it: an `invalid argument`, no count named. A serving router's forward loop catches it as
# a task exception; in the raw traceback the launcher's cache lookup (a KeyError over the
# kernel's specialisation key, caught to compile the kernel) is printed first.
TRITON_LAUNCH_RAW = """\
Traceback (most recent call last):
  File "<string>", line 21, in _fwd_kernel_int8kv
KeyError: ('2-.-0-.-0-4f1d2a9e07c3b8a6d5e4f3a2b1c0d9e8', (torch.float16, torch.float16, 'i32'), (64, 64, 64), (True, True, (False,)))

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/router/model_infer.py", line 88, in forward
    _fwd_kernel_int8kv[grid](q, k, v, o, sm_scale, BLOCK_M=64, BLOCK_N=64)
  File "<string>", line 43, in _fwd_kernel_int8kv
RuntimeError: Triton Error [CUDA]: invalid argument
"""

# The same refusal as an asyncio task's record of the exception it ended with.
TRITON_LAUNCH_TASK = """\
Task exception was never retrieved
future: <Task finished name='Task-3' coro=<Router.loop_for_fwd() done, defined at /srv/router/manager.py:91> exception=Triton Error [CUDA]: invalid argument
"""

# Counterexample: the launcher's cache lookup alone, with no refusal after it, names no failure
# a rule can read as the launch's.
TRITON_CACHE_KEY_ONLY = """\
  File "<string>", line 21, in _fwd_kernel_int8kv
KeyError: ('2-.-0-.-0-4f1d2a9e07c3b8a6d5e4f3a2b1c0d9e8', (torch.float16, torch.float16, 'i32'), (64, 64, 64), (True, True, (False,)))
"""


def test_a_launch_triton_passes_on_as_an_invalid_argument_is_the_ops_failure() -> None:
    diagnosis = diagnose_text("logs/router.log", TRITON_LAUNCH_RAW)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Triton Error [CUDA]: invalid argument",
        rule="op.triton_cuda_launch_invalid_argument",
        beside=("config",),
    )


def test_a_task_record_of_the_refused_launch_is_read_the_same() -> None:
    diagnosis = diagnose_text("logs/router.log", TRITON_LAUNCH_TASK)
    assert_reads(
        diagnosis,
        "operator",
        first_error="exception=Triton Error [CUDA]: invalid argument",
        rule="op.triton_cuda_launch_invalid_argument",
    )


def test_the_launchers_cache_lookup_alone_is_not_the_refused_launch() -> None:
    diagnosis = diagnose_text("logs/router.log", TRITON_CACHE_KEY_ONLY)
    assert "op.triton_cuda_launch_invalid_argument" not in rules_of(diagnosis)
