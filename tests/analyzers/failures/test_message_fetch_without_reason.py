"""A failed fetch of the device's error message whose reason did not survive.

The runtime's `rtGetDevMsg` refusal says the device was never opened when its reason is the
missing context; a paste or a terminal often cuts the long EE1001 line right after `failed`.
The fetch still failed and is read the same way (`driver_env`), but the reason that was lost
could have been the driver's "no valid device", so `device_fault` is offered beside it and the
answer stays below the confident band. A reason that is there keeps its own reading.
docs/labelling.md#probes-yield-to-their-reason. Fixtures are written in the real shapes with
their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A GGUF server started over several cards; the only error is the cut refusal.
CUT_AFTER_FAILED = """\
0.00.004.118 I version    : v0.0.200 (1a2b3c4)
0.00.004.120 I target     : aarch64-linux-gnu
/opt/build/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:70: CANN error
0.00.512.907 E CANN error: EE1001: 2026-01-12-04:05:06.070.809 The argument is invalid.Reason: rtGetDevMsg execute failed, re
"""

# The same refusal as an error-manager headline, cut right after the word.
CUT_HEADLINE = """\
[W 2026-01-12 04:06:10] worker 1 starting on device 1
EE1001: [PID: 5120] 2026-01-12-04:06:10.301.422 The argument is invalid.Reason: rtGetDevMsg execution failed
"""

# Counterexample: the driver's own reason is kept and read as the device's.
DRIVER_REASON_KEPT = """\
EE1001: [PID: 5121] 2026-01-12-04:07:11.301.422 The argument is invalid.
        TraceBack (most recent call last):
        rtGetDevMsg execution failed, reason=driver error:no valid device[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]
"""

# Counterexample: an ordinary progress line that names the call is no failure.
FETCH_WORKED = """\
[rank3] INFO rtGetDevMsg returned the message of device 3
[rank3] INFO layer 12 passed
"""


def test_a_refusal_cut_after_failed_is_the_fetch_with_the_device_beside_it() -> None:
    diagnosis = diagnose_text("model-instance.log", CUT_AFTER_FAILED)
    assert_reads(
        diagnosis, "driver_env", first_error="rtGetDevMsg execute failed", beside=("device_fault",)
    )
    assert diagnosis.confidence < 0.8


def test_a_headline_cut_after_failed_reads_the_same() -> None:
    diagnosis = diagnose_text("worker1.log", CUT_HEADLINE)
    assert_reads(diagnosis, "driver_env", first_error="rtGetDevMsg execution failed")


def test_the_drivers_reason_keeps_the_device_reading() -> None:
    diagnosis = diagnose_text("plog/plog-5121.log", DRIVER_REASON_KEPT)
    assert diagnosis.category == "device_fault"


def test_a_progress_line_naming_the_call_is_no_failure() -> None:
    diagnosis = diagnose_text("rank3.log", FETCH_WORKED)
    assert diagnosis.category != "driver_env"
