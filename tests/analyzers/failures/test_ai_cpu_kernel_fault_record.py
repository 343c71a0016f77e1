"""The runtime's record of a kernel that faulted on the device names the core type in words:
`Aicore kernel execute failed`, `AI Core kernel execution failed`, and for a kernel of the AI CPU
`AI CPU kernel execute failed, device_id=N, stream_id=N, task_id=N,` with the kernel's shared
object and function after it (`soName=..., funcName=...`, often on the next line). It is a
device-side exception like the others, `aicore_timeout` by the corpus rule, and it is the first
error ahead of the `reason=aicpu exception` synchronize line that reports the same fault later
(docs/labelling.md#an-operator-name-decides-nothing).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

_BLOCK = (
    "AI CPU kernel execute failed, device_id=1, stream_id=12, task_id=7,\n"
    "     soName=libdemo_aicpu_kernel.so, funcName=DemoLaunchAicpuKernel, errorCode=0x2a\n"
    "EE9999: rtDeviceSynchronizeWithTimeout execution failed, reason=aicpu exception\n"
    "RuntimeError: ACL stream synchronize failed, error code:507018\n"
)


def test_the_ai_cpu_kernel_fault_record_is_a_device_exception_and_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", _BLOCK)
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="AI CPU kernel execute failed, device_id=1",
        rule="aicore.kernel_execute_failed",
    )


def test_an_ai_cpu_kernel_that_finished_is_no_fault() -> None:
    diagnosis = diagnose_text(
        "train.log", "AI CPU kernel execute finished, device_id=1, stream_id=12, task_id=7\n"
    )
    assert "aicore.kernel_execute_failed" not in rules_of(diagnosis)
