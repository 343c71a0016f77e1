"""A harness's own line that its init or call failed with an ACL runtime code.

Runtime harnesses, CI drivers and test programs that drive the device directly report a failed
step in their own words with the runtime's number at the end (`<step> failed with code 507033`),
often as the innermost of several exceptions a parent process re-raises from a child. The
number says what happened, as it does in torch_npu's text: the code table decides the label,
and the innermost line that carries it is the first error, ahead of the headlines that only
wrap it. A process's exit status (`failed with code 1`, `137`) is no runtime code.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WRAPPED_DEVICE_START = """\
RuntimeError: cluster session open failed for node 2:
  session startup failed for node 2: remote startup:
    File ".../bench/session.py", line 412, in start
      child.init(deadline=deadline)
    File ".../bench/pool.py", line 2203, in _wait_children
      raise RuntimeError(f"{kind} child {i} (pid {pids[i]}) failed during init: ...")
  RuntimeError: device child 1 (pid 90412) failed during init:
    device_process dev=6 init: RuntimeError: runtime_setup failed with code 507033
"""

KERNEL_FAULT = """\
[2026-07-02 10:11:12] case softmax_rows: launching 48 blocks
[ERROR] case softmax_rows: stream sync failed with code 507035
"""

# The device's own record printed after the harness's line says more: it is the first error.
WITH_DEVICE_RECORD = """\
[ERROR] kernel_bench: stream sync failed with code 507035
EZ9999: Inner Error!
EZ9999: [PID: 4410] 2026-07-02-10:11:12.000.100 The error from device(chipId:0, dieId:0), serial number is 7, there is an exception of fftsplus aivector error, core id is 12, error code = 0x800000, dump info: pc start: 0x1240, current: 0x1300
        TraceBack (most recent call last):
"""

# Counterexample: a launcher's exit status is not a runtime code.
EXIT_STATUS = """\
worker 3 failed with code 137
"""


def test_the_innermost_line_with_the_runtime_code_is_the_first_error() -> None:
    diagnosis = diagnose_text("ci/job.log", WRAPPED_DEVICE_START)
    assert_reads(diagnosis, "driver_env", first_error="runtime_setup failed with code 507033")
    assert "507033" in diagnosis.error_codes


def test_a_device_side_code_gives_its_own_label() -> None:
    diagnosis = diagnose_text("ci/kernels.log", KERNEL_FAULT)
    assert_reads(diagnosis, "aicore_timeout", first_error="failed with code 507035")


def test_the_devices_own_record_outranks_the_harness_line() -> None:
    diagnosis = diagnose_text("ci/kernels.log", WITH_DEVICE_RECORD)
    assert_reads(diagnosis, "aicore_timeout", first_error="fftsplus aivector error")


def test_an_exit_status_is_no_runtime_code() -> None:
    diagnosis = diagnose_text("ci/job.log", EXIT_STATUS)
    assert diagnosis.category != "driver_env"
    assert "137" not in diagnosis.error_codes
