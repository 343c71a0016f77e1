"""Python's fatal-error dump printed while a rank tears down after its own error.

docs/labelling.md#native-only-crashes
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MODULES = (
    "Extension modules: numpy._core._multiarray_umath, numpy.linalg._umath_linalg, torch._C, "
    "torch._C._dynamo.autograd_compiler, torch._C._fft, torch._C._linalg, torch._C._nn "
    "(total: 7)"
)

# A gloo rank times out in its all_reduce, logs it, and aborts while unwinding with the
# process group's threads alive; faulthandler then prints its fatal-error dump.
TIMEOUT_THEN_ABORT = f"""\
2026-03-14 11:02:07,873 [rank0] INFO   norm passed
2026-03-14 11:02:15,895 [rank0] ERROR model run failed
Traceback (most recent call last):
  File "/srv/bisect/run.py", line 100, in attention
    dist.all_reduce(y)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in all_reduce
    work.wait()
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out waiting 8000ms for send operation to complete
terminate called without an active exception
Fatal Python error: Aborted

Thread 0x00007f2abcc0fb80 (most recent call first):
  <no Python frame>

{MODULES}
"""

# The list kept alone (a paste without the header) still says the process died in native code.
MODULES_ALONE = f"""\
2026-03-14 11:02:07,873 [rank0] INFO   norm passed
{MODULES}
"""


def test_a_module_list_under_an_abort_header_is_that_dump_and_the_timeout_comes_first() -> None:
    diagnosis = diagnose_text("logs/log_0.log", TIMEOUT_THEN_ABORT)
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting 8000ms")


def test_a_module_list_alone_is_still_a_native_crash() -> None:
    diagnosis = diagnose_text("logs/log_0.log", MODULES_ALONE)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("Extension modules:")
