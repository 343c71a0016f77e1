"""A TPU worker's server that lost the job's session, and SYCL's unknown plugin status.

docs/labelling.md#runtimes-of-other-accelerators: XRT runs each graph in a session on the TPU
worker's server; when that server crashed or restarted, the client's session check fails with
`Aborted: Session <id> is not found`, and runs the server dropped fail with `Cancelled: From
/job:<worker>/...`. The remote server failed under the job: `device_fault`, with `other` and
`oom` beside it. The same check with another status keeps its own reading.

The SYCL runtime's plugin interface answers a failure it has no code for with -999, `Unknown PI
error`: the stack under SYCL does not fit the card or the container, `driver_env`, with
`device_fault` beside it. The named statuses keep their rules. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

SESSION_GONE = (
    "| Training Device=xla:1/3 Epoch=2 Step=640 Loss=1.20411\n"
    "Exception in device=TPU:3: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:402"
    " : Check failed: session->session()->Run(session_work->feed_inputs,"
    " session_work->outputs_handles, &outputs) == ::tensorflow::Status::OK()"
    " (Aborted: Session 9c41d07e22ab5f13 is not found. vs. OK)\n"
)

SESSION_CANCELLED = (
    "41:Exception in device=TPU:6: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:390"
    " : Check failed: session->session()->Run( session_work->feed_inputs,"
    " session_work->outputs_handles, &outputs) == ::tensorflow::Status::OK()"
    " (Cancelled: From /job:tpu_worker/replica:0/task:0:\n"
    "97:RuntimeError: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:390"
    " : Check failed: session->session()->Run( session_work->feed_inputs,"
    " session_work->outputs_handles, &outputs) == ::tensorflow::Status::OK()"
    " (Cancelled: From /job:tpu_worker/replica:0/task:0:\n"
)

SESSION_OTHER_STATUS = (
    "RuntimeError: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:1187 : Check"
    " failed: session.Run(...) == ::tensorflow::Status::OK() (Invalid argument: No matching"
    " devices found for '/job:tpu_worker/replica:0/task:1/device:TPU_SYSTEM:0' vs. OK)\n"
)

UNKNOWN_PLUGIN_STATUS = (
    "rank 0: Level-Zero platform, 2 GPU device(s)\n"
    "rank 1: Level-Zero platform, 2 GPU device(s)\n"
    "terminate called after throwing an instance of 'sycl::_V1::runtime_error'\n"
    "  what():  Native API failed. Native API returns: -999 (Unknown PI error)"
    " -999 (Unknown PI error)\n"
)

NAMED_PLUGIN_STATUS = (
    "RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES)"
    " -5 (PI_ERROR_OUT_OF_RESOURCES)\n"
)


def test_a_session_the_tpu_server_no_longer_knows_is_the_server_failing() -> None:
    diagnosis = diagnose_text("stderr.txt", SESSION_GONE)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "is not found" in diagnosis.first_error.text
    assert {"other", "oom"} <= {alt.category for alt in diagnosis.alternatives}


def test_runs_the_tpu_server_cancelled_read_the_same_from_the_first() -> None:
    diagnosis = diagnose_text("train.log", SESSION_CANCELLED)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "device=TPU:6" in diagnosis.first_error.text


def test_the_session_check_with_another_status_keeps_its_reading() -> None:
    diagnosis = diagnose_text("stderr.txt", SESSION_OTHER_STATUS)
    assert diagnosis.category == "driver_env"


def test_the_sycl_plugins_unknown_status_is_the_stack_under_it() -> None:
    diagnosis = diagnose_text("mpirun.log", UNKNOWN_PLUGIN_STATUS)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "-999 (Unknown PI error)" in diagnosis.first_error.text
    assert "device_fault" in {alt.category for alt in diagnosis.alternatives}


def test_a_named_plugin_status_keeps_its_own_rule() -> None:
    diagnosis = diagnose_text("stderr.txt", NAMED_PLUGIN_STATUS)
    assert diagnosis.category == "oom"
