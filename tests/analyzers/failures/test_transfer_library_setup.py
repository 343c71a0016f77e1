"""Transfer libraries whose host set-up is wrong, and the crash or the failures printed after it.

docs/labelling.md#a-ucx-library-older-than-its-caller: UCX's start-up warning that the library
loaded is older than the release the program was built against is the first error and
`driver_env`; a segfault the same file prints after it is its aftermath.
docs/labelling.md#a-transfer-librarys-bare-status: a segfault after NIXL's bare status in the
same file does not take the status's place.
docs/labelling.md#a-graph-engine-helper-that-does-not-start: CANN's graph engine that cannot
start its queue-scheduler or flow-gateway helper is `driver_env`, its first line first.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

OLD_UCX_THEN_CRASH = """\
Loaded plugin UCX
[1761302214.530118] [infer-b3:20417:0]     ucp_context.c:1774 UCX  WARN  UCP version is incompatible, required: 1.19, actual: 1.14 (release 0)
Initialized NIXL agent: reader-0
reading 4 blocks from writer-0
[infer-b3:20417:0:20417] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f2a40200000)
==== backtrace (tid:  20417) ====
 0  /usr/lib/x86_64-linux-gnu/libucs.so.0(ucs_handle_error+0x2e4) [0x7f2d11a04fc4]
 1  /usr/lib/x86_64-linux-gnu/libucs.so.0(+0x24fec) [0x7f2d11a08fec]
"""


def test_an_older_ucx_named_at_start_comes_before_the_crash() -> None:
    diagnosis = diagnose_text("reader.log", OLD_UCX_THEN_CRASH)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="UCP version is incompatible",
        rule="env.ucx_library_version_mismatch",
        beside=("device_fault",),
    )


def test_the_crash_without_the_warning_stays_a_crash() -> None:
    text = OLD_UCX_THEN_CRASH.replace(OLD_UCX_THEN_CRASH.splitlines()[1] + "\n", "")
    diagnosis = diagnose_text("reader.log", text)
    assert diagnosis.category == "device_fault"
    assert "env.ucx_library_version_mismatch" not in rules_of(diagnosis)


def test_a_transport_left_out_by_the_settings_is_no_version_mismatch() -> None:
    text = OLD_UCX_THEN_CRASH.replace(
        "UCP version is incompatible, required: 1.19, actual: 1.14 (release 0)",
        "transports 'cuda_ipc','cuda_copy' are not available, please use one or more of: posix, self, sysv, tcp",
    )
    diagnosis = diagnose_text("reader.log", text)
    assert diagnosis.category == "device_fault"


STATUS_THEN_CRASH = """\
  File "/opt/venv/lib/python3.11/site-packages/nixl/_api.py", line 270, in register_memory
    self.agent.registerMem(reg_descs, handle_list)
nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND
Segmentation fault (core dumped)
"""


def test_a_crash_after_the_bare_status_does_not_take_its_place() -> None:
    diagnosis = diagnose_text("register_kv.log", STATUS_THEN_CRASH)
    assert_reads(diagnosis, "driver_env", first_error="NIXL_ERR_BACKEND", beside=("device_fault",))


def test_a_crash_printed_before_the_status_keeps_its_reading() -> None:
    text = (
        "Fatal Python error: Segmentation fault\n"
        "nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND\n"
    )
    diagnosis = diagnose_text("shared_console.log", text)
    assert_reads(diagnosis, "device_fault", first_error="Segmentation fault")


HELPER_NOT_STARTED = """\
[ERROR] GE(7713,python):2026-03-02-11:20:41.918.204 [subprocess_manager.cc:181]7790 operator(): ErrorNo: 4294967295(failed) Unsupported process type: queue_schedule
[ERROR] GE(7713,python):2026-03-02-11:20:41.918.240 [flowgw_client.cc:69]7802 InnerStartFlowGw: ErrorNo: 4294967295(failed) Failed to fork flowgw.
[ERROR] GE(7713,python):2026-03-02-11:20:41.918.247 [flowgw_client.cc:178]7802 StartFlowGw: ErrorNo: 4294967295(failed) Failed to start flowgw, device_id = 3, memory group = DM_QS_GROUP_7713.
[ERROR] GE(7713,python):2026-03-02-11:20:41.918.260 [flowgw_client_manager.cc:44]7802 GetOrCreateClient: ErrorNo: 4294967295(failed) Failed to initialize flowgw client.
[ERROR] GE(7713,python):2026-03-02-11:20:41.919.930 [deployer_service_impl.cc:170]7802 Process: ErrorNo: 4294967295(failed) [Process][Request] failed, client = local_context_7713, type = kInitProcessResource, ret = 4294967295
"""


def test_a_graph_engine_helper_that_does_not_start_is_the_machines_setup() -> None:
    diagnosis = diagnose_text("prefill_0.log", HELPER_NOT_STARTED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Unsupported process type: queue_schedule",
        rule="env.ge_helper_process_start_failed",
        beside=("config",),
    )


def test_the_client_managers_restatement_alone_is_not_this_rule() -> None:
    diagnosis = diagnose_text("prefill_0.log", HELPER_NOT_STARTED.splitlines()[3] + "\n")
    assert "env.ge_helper_process_start_failed" not in rules_of(diagnosis)
    assert diagnosis.category != "operator"


# docs/labelling.md#a-transfer-buffer-retried-without-end: a KV connector whose staging buffer
# is full retries the allocation at warning level and never gives up; read through the
# library's own level field, the warning is the only record of why requests stopped.
BUFFER_FULL = "".join(
    "[2026-08-14 03:17:42,508] LMCache WARNING: Failed to allocate memory object, retrying... "
    "(kv_channel.py:412:lmcache.v1.kv_channel)\n"
    for _ in range(6)
)


def test_a_transfer_buffer_retried_without_end_is_its_shortage() -> None:
    diagnosis = diagnose_text("prefiller.log", BUFFER_FULL)
    assert_reads(diagnosis, "oom", first_error="Failed to allocate memory object")


def test_a_retry_without_a_level_field_stays_a_note() -> None:
    text = "".join("rpc to store failed: connection reset, retrying\n" for _ in range(3))
    diagnosis = diagnose_text("prefiller.log", text)
    assert diagnosis.first_error is None


def test_an_error_raised_after_the_retries_comes_first() -> None:
    text = BUFFER_FULL + "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    diagnosis = diagnose_text("prefiller.log", text)
    assert diagnosis.first_error is not None
    assert "illegal memory access" in diagnosis.first_error.text


# Later UCX releases name the API and the library the loader found; a paste can stop before
# anything fails. Our own values.
OLD_UCX_API_NAMED = """\
INFO 04-02 09:10:11 nixl.py:38] Initializing NIXL wrapper
[1762011320.118402] [gpu-node-4:5120 :0]     ucp_context.c:2137 UCX  WARN  UCP API version is incompatible: required >= 1.19, actual 1.15.0 (loaded from /usr/lib/x86_64-linux-gnu/libucp.so.0)
Initialized NIXL agent: 6f1c2d3e-0a1b-4c5d-8e9f-112233445566
PrefillWorker initialized
"""


def test_the_api_wording_of_an_older_ucx_is_the_same_mismatch() -> None:
    """docs/labelling.md#a-ucx-library-older-than-its-caller"""
    diagnosis = diagnose_text("prefill.log", OLD_UCX_API_NAMED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="UCP API version is incompatible",
        rule="env.ucx_library_version_mismatch",
    )


def test_the_api_version_reported_at_info_is_no_mismatch() -> None:
    text = OLD_UCX_API_NAMED.replace(
        "UCX  WARN  UCP API version is incompatible: required >= 1.19, actual 1.15.0 (loaded from",
        "UCX  INFO  UCP API version is 1.19, loaded from",
    )
    diagnosis = diagnose_text("prefill.log", text)
    assert "env.ucx_library_version_mismatch" not in rules_of(diagnosis)
