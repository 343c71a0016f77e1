"""A synchronize failure that carries only its return code.

docs/labelling.md#code-only-synchronize-failures: the code decides when its own entry names
a label; otherwise it is a synchronisation failure, never an AI Core timeout guessed from the
call's name.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

RAISED = (
    "[rank2]: Traceback (most recent call last):\n"
    '[rank2]:   File "/srv/train/loop.py", line 88, in step\n'
    "[rank2]:     torch.npu.synchronize()\n"
    "[rank2]: RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/"
    "compiler_depend.ts:467 NPU function error: {call}, error code is {code}\n"
    "[rank2]: [ERROR] 2026-04-02-08:01:02 (PID:771, Device:2, RankID:2) "
    "ERR00100 PTA call acl api failed\n"
)

CASES = [
    # (call, code, label): codes without a label of their own leave stream_sync
    ("AclrtSynchronizeDeviceWithTimeout", "507011", "stream_sync"),
    ("aclrtSynchronizeDevice", "507000", "stream_sync"),
    ("aclrtSynchronizeStream", "507990", "stream_sync"),  # listed nowhere
    # counterexamples: the code names what failed
    ("AclrtSynchronizeDeviceWithTimeout", "507014", "aicore_timeout"),
    ("aclrtSynchronizeDevice", "507053", "device_fault"),
    ("AclrtSynchronizeDeviceWithTimeout", "507048", "hccl"),
]


@pytest.mark.parametrize(("call", "code", "label"), CASES, ids=[f"{c[1]}" for c in CASES])
def test_a_synchronize_with_only_a_code_is_labelled_by_that_code_or_stream_sync(
    call: str, code: str, label: str
) -> None:
    diagnosis = diagnose_text("job/rank2.log", RAISED.format(call=call, code=code))
    assert_reads(diagnosis, label, first_error=code)


def test_an_unlabelled_code_keeps_its_doubt_in_the_confidence() -> None:
    diagnosis = diagnose_text(
        "job/rank2.log", RAISED.format(call="aclrtSynchronizeDevice", code="507011")
    )
    assert diagnosis.confidence < 0.8


# The synchronize warnings of a ZeRO-3 step whose collective never finished: the device's
# GetError line names the FFTS+ task's kind, the trace under it only the synchronize code.
WAITED_ON_A_COLLECTIVE = """\
[W NPUStream.cpp:382] Warning: NPU warning, error code is 107020[Error]: .
EE9999: Inner Error!
EE9999  fftsplus task execute failed, dev_id=5, stream_id=7, task_id=2210, context_id=4, thread_id=0, err_type=13[hccl fftsplus timeout][FUNC:GetError][FILE:stream.cc][LINE:1512]
        TraceBack (most recent call last):
        rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
        wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
 (function npuSynchronizeUsedDevices)
"""

# The same warning when the device said nothing about which task it waited for.
WAITED_ON_NOTHING_NAMED = """\
[W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .
EH9999: Inner Error!
        rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
EH9999  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
        TraceBack (most recent call last):
 (function npuSynchronizeDevice)
"""


def test_a_device_line_naming_an_hccl_task_labels_the_synchronize_timeout_hccl() -> None:
    diagnosis = diagnose_text("train/rank5.log", WAITED_ON_A_COLLECTIVE)
    assert_reads(diagnosis, "hccl", first_error="[hccl fftsplus timeout]")


def test_a_synchronize_timeout_that_names_no_task_stays_stream_sync() -> None:
    diagnosis = diagnose_text("train/rank5.log", WAITED_ON_NOTHING_NAMED)
    assert diagnosis.category == "stream_sync"


# docs/labelling.md#event-waits-that-run-out: a stream synchronize that fails because an
# event wait on the device ran out. The device's headline names the wait, not a core.
EVENT_WAIT_RAN_OUT = """\
[ERROR] DEVICE(40512,ffff7c10e010,python):2026-05-11-03:14:27.551.090 [ascend_stream_manager.cc:241] SyncStream] Call runtime aclrtSynchronizeStreamWithTimeout error.
EE9999: Inner Error!
EE9999 The error from device(chipId:6, dieId:0), serial number is 4, event wait timeout occurred during task execution, stream_id:57, sq_id:57, task_id:3120, event_id=12, timeout=1990.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1314]
        TraceBack (most recent call last):
        Task execute failed, device_id=6, stream_id=57, task_id=3120, flip_num=0, task_type=3(EVENT_WAIT).[FUNC:GetError][FILE:stream.cc][LINE:1483]
        synchronize stream failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""

# The same headline when the device did report a kernel of its own failing.
KERNEL_FAILED_ON_DEVICE = """\
EZ9999: Inner Error!
EZ9999: [PID: 40512] 2026-05-11-03:14:27.551.090 The error from device(chipId:6, dieId:0), serial number is 4, there is an exception of aicore error, core id is 11, error code = 0x800000
        TraceBack (most recent call last):
        rtStreamSynchronize execute failed, reason=[aicore exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""


def test_an_event_wait_that_ran_out_is_stream_sync_with_a_stall_as_its_neighbours() -> None:
    diagnosis = diagnose_text("train/rank6.log", EVENT_WAIT_RAN_OUT)
    assert_reads(diagnosis, "stream_sync", first_error="event wait timeout occurred")
    neighbours = {alt.category for alt in diagnosis.alternatives}
    assert neighbours == {"hang", "hccl"}


def test_a_device_headline_that_names_a_core_exception_stays_an_aicore_failure() -> None:
    diagnosis = diagnose_text("train/rank6.log", KERNEL_FAILED_ON_DEVICE)
    assert diagnosis.category == "aicore_timeout"
    assert "hang" not in {alt.category for alt in diagnosis.alternatives}


# docs/labelling.md#event-waits-that-run-out: torch_npu's exception for a device synchronize
# that ran out, with the runtime's stream-synchronize-timeout record under it. The record is
# cited, and what it leaves open is a stall, not a core failure.
SYNC_RAN_OUT = """\
[rank5]: RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:412 NPU function error: aclrtSynchronizeDevice, error code is 507046
[rank5]: [ERROR] 2026-06-02-11:20:33 (PID:50712, Device:5, RankID:5) ERR00100 PTA call acl api failed
[rank5]: [Error]: In the specified timeout waiting event, all tasks in the specified stream are not completed.
[rank5]: EE1002: 2026-06-02-11:20:33.118.402 Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]
[rank5]:         TraceBack (most recent call last):
"""


def test_a_synchronize_that_ran_out_offers_a_stall_not_a_core_failure() -> None:
    diagnosis = diagnose_text("train/rank5.log", SYNC_RAN_OUT)
    assert_reads(diagnosis, "stream_sync", first_error="Stream synchronize timeout")
    assert {alt.category for alt in diagnosis.alternatives} == {"hang", "hccl"}


def test_a_synchronize_that_failed_without_running_out_still_offers_a_core_failure() -> None:
    """Counterexample: a code that names no wait (507011) says nothing of a stall."""
    failed = RAISED.format(call="aclrtSynchronizeDevice", code="507011")
    category, neighbours = _alternatives(failed)
    assert category == "stream_sync"
    assert "aicore_timeout" in neighbours
    assert "hccl" not in neighbours


def _alternatives(text: str) -> tuple[str, list[str]]:
    diagnosis = diagnose_text("serve/worker.log", text)
    return diagnosis.category, alternative_labels(diagnosis)


WAIT_UNDER_WORKER = (
    "(Worker_DP0_TP2_EP2 pid=9120) ERROR 02-11 04:05:06 [multiproc_executor.py:880] "
    "        TraceBack (most recent call last):\n"
    "(Worker_DP0_TP2_EP2 pid=9120) ERROR 02-11 04:05:06 [multiproc_executor.py:880] "
    "       wait event to be complete failed, runtime result = {code}"
    "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n"
)


def test_a_wait_the_code_relabels_keeps_its_literal_reading_as_a_neighbour() -> None:
    """docs/labelling.md#code-only-synchronize-failures: 507048 makes an event wait a
    collective's wait; a reader who sets the code aside reads a synchronisation failure."""
    category, alternatives = _alternatives(WAIT_UNDER_WORKER.format(code="507048"))
    assert category == "hccl"
    assert "stream_sync" in alternatives


def test_a_wait_whose_code_names_no_label_is_not_offered_twice() -> None:
    category, alternatives = _alternatives(WAIT_UNDER_WORKER.format(code="507011"))
    assert category == "stream_sync"
    assert "stream_sync" not in alternatives


def test_a_reason_word_rule_offers_only_the_neighbours_it_names() -> None:
    reason = (
        "EE9999[PID: 812] 2026-02-11-04:05:06.123.456 (EE9999):  rtStreamSynchronizeWithTimeout "
        "execute failed, reason=[fftsplus timeout][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:53]\n"
    )
    category, alternatives = _alternatives(reason)
    assert category == "hccl"
    assert "stream_sync" not in alternatives


def test_an_event_synchronize_that_gave_up_with_only_its_code_offers_a_stall() -> None:
    """107020 is a wait that ran out, read like an event wait
    (docs/labelling.md#event-waits-that-run-out); 507011 names no wait and offers no stall."""
    gave_up = RAISED.format(call="aclrtSynchronizeEvent(event_)", code="107020")
    category, neighbours = _alternatives(gave_up)
    assert category == "stream_sync"
    assert "hang" in neighbours
    failed = RAISED.format(call="aclrtSynchronizeEvent(event_)", code="507011")
    category, neighbours = _alternatives(failed)
    assert category == "stream_sync"
    assert "hang" not in neighbours
    assert "hccl" not in neighbours


# The error manager's form of the same report: the device's "The error from device" headline
# whose detail is a collective's FFTS+ task that never finished (its notify waits are stuck),
# raised to a barrier's synchronize. The headline names a collective's task, not a core.
COLLECTIVE_TASK_IN_DEVICE_HEADLINE = """\
node-2: RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:363 NPU error, error code is 107020
node-2: [ERROR] 2026-03-14-09:21:40 (PID:4410, Device:1, RankID:9) ERR00100 PTA call acl api failed.
node-2: EI9999: Inner Error!
node-2: EI9999: 2026-03-14-09:21:40.117.302  The error from device(chipId:1, dieId:0), serial number is 2, hccl fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:61, stuck notify num:3, timeout:1836.[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1389]
node-2:         TraceBack (most recent call last):
"""


def test_a_device_headline_naming_a_collective_task_offers_no_core_failure() -> None:
    diagnosis = diagnose_text("train/rank9.log", COLLECTIVE_TASK_IN_DEVICE_HEADLINE)
    assert_reads(diagnosis, "hccl", first_error="hccl fftsplus task timeout occurred")
    assert "aicore_timeout" not in {alt.category for alt in diagnosis.alternatives}
    assert "hang" in {alt.category for alt in diagnosis.alternatives}


@pytest.mark.parametrize("code", ["507046", "507047"])
def test_a_synchronize_that_ran_out_of_time_offers_a_stall_beside_it(code: str) -> None:
    """docs/labelling.md#event-waits-that-run-out: a stream or event synchronize timeout says
    only that the wait ended; a peer that stalled (`hang`) or a collective that never finished
    (`hccl`) is what a reader checks next."""
    text = RAISED.format(call="aclrtSynchronizeStreamWithTimeout", code=code)
    diagnosis = diagnose_text("job/rank2.log", text)
    assert diagnosis.category == "stream_sync"
    assert {"hang", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


# MindSpore's runtime words a failed stream wait itself, with its reason after `exception:`;
# here the stream was never created, while the model was still being built.
FRAMEWORK_SYNC_STREAM = """\
[ERROR] DEVICE(518,ffffa1c2d0c0,python):2024-05-20-14:03:11.227.904 [mindspore/ccsrc/runtime/device/kernel_runtime_manager.cc:136] WaitTaskFinishOnDevice] SyncStream failed, exception:The pointer[stream] is null.

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/runtime/device/kernel_runtime.cc:108 LockRuntime

Traceback (most recent call last):
  File "train.py", line 88, in <module>
    net = build_net(cfg)
"""


def test_a_framework_stream_wait_failure_is_a_synchronisation_failure() -> None:
    diagnosis = diagnose_text("job/train.log", FRAMEWORK_SYNC_STREAM)
    assert_reads(diagnosis, "stream_sync", first_error="SyncStream failed", beside=("driver_env",))


# docs/labelling.md#code-only-synchronize-failures: MindSpore's device layer says a device task
# failed before its stream waits fail; the callback line comes first and is the first error.
FRAMEWORK_TASK_FAIL = """\
sampling step 0/20
[ERROR] DEVICE(6120,fffe5b1c91e0,python):2025-02-03-04:05:06.101.202 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:674] TaskFailCallback] Execute TaskFailCallback failed. current_graph_ is nullptr
[ERROR] DEVICE(6120,fffe5b1c91e0,python):2025-02-03-04:05:06.488.310 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_stream_manager.cc:194] SyncStream] Call runtime rtStreamSynchronize error.
[ERROR] DEVICE(6120,fffe5b1c91e0,python):2025-02-03-04:05:06.488.340 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:1133] SyncStream] Sync default stream failed.
Traceback (most recent call last):
  File "sample.py", line 77, in <module>
    images = pipeline(prompt)
RuntimeError: Sync stream error!
"""

CALLBACK_REGISTERED = """\
[INFO] DEVICE(6120,fffe5b1c91e0,python):2025-02-03-04:05:01.101.202 [ascend_kernel_runtime.cc:640] SetTaskFailCallback] register TaskFailCallback done
[ERROR] DEVICE(6120,fffe5b1c91e0,python):2025-02-03-04:05:06.488.310 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_stream_manager.cc:194] SyncStream] Call runtime rtStreamSynchronize error.
"""


def test_a_failed_task_callback_comes_before_the_stream_waits_it_caused() -> None:
    diagnosis = diagnose_text("job/sample.log", FRAMEWORK_TASK_FAIL)
    assert_reads(diagnosis, "stream_sync", first_error="Execute TaskFailCallback failed")
    assert {"aicore_timeout", "device_fault"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_runtime_stream_call_alone_is_the_stream_wait_not_the_callback() -> None:
    diagnosis = diagnose_text("job/sample.log", CALLBACK_REGISTERED)
    assert_reads(diagnosis, "stream_sync", first_error="Call runtime rtStreamSynchronize error")


STREAM_RECORD_UNDER_HEADLINE = (
    "RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:47 NPU function "
    "error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507011\n"
    "[ERROR] 2026-05-14-03:22:41 (PID:2218, Device:5, RankID:-1) ERR00100 PTA call acl api failed\n"
    "EH9999: [PID: 2218] 2026-05-14-03:22:41.902.114 synchronize stream failed, runtime result = "
    "507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
    "        TraceBack (most recent call last):\n"
)


def test_the_runtime_record_of_a_stream_wait_yields_to_the_exception_that_reported_it() -> None:
    """The runtime's `synchronize stream failed, runtime result = N` is its record of the wait
    torch_npu already raised above with the same code: the exception line is the first error."""
    diagnosis = diagnose_text("serve/worker.log", STREAM_RECORD_UNDER_HEADLINE)
    assert_reads(
        diagnosis, "stream_sync", first_error="AclrtSynchronizeStreamWithTimeout(copy_stream)"
    )


def test_a_bare_stream_synchronize_failure_is_still_the_first_error() -> None:
    """Counterexample: torch_npu's own `ACL stream synchronize failed` with no record under it."""
    text = "RuntimeError: ACL stream synchronize failed, error code:507011\n"
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(diagnosis, "stream_sync", first_error="ACL stream synchronize failed")


# A synchronize line copied by hand from a screenshot: the same words and code, but the call's
# timeout suffix in another case and no space after the wrapper's colon or before the code.
RETYPED = (
    "RuntimeError: Step:build/torch_npu_dir/compile_depend.ts:120 NPU function "
    "error:c10_npu::acl::AclrtSynchronizeStreamWithTimeOut(stream),error code is {code}\n"
)


@pytest.mark.parametrize(
    ("code", "label"),
    [("107027", "stream_sync"), ("507034", "aicore_timeout"), ("507053", "device_fault")],
)
def test_a_synchronize_line_retyped_by_hand_is_read_like_the_printed_one(
    code: str, label: str
) -> None:
    # docs/labelling.md#code-only-synchronize-failures
    diagnosis = diagnose_text("serve.log", RETYPED.format(code=code))
    assert diagnosis.category == label
    assert diagnosis.confidence >= 0.5
    assert code in diagnosis.error_codes


def test_a_retyped_capture_code_keeps_the_setting_beside_it() -> None:
    # docs/labelling.md#calls-refused-during-graph-capture: 107027 carries config itself
    diagnosis = diagnose_text("serve.log", RETYPED.format(code="107027"))
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_word_that_only_resembles_the_call_is_no_synchronize_failure() -> None:
    # counterexample: the timeout's spelling is tolerated, not any word after Synchronize
    diagnosis = diagnose_text(
        "serve.log",
        "RuntimeError: Step:build/x.ts:120 NPU function error:c10_npu::acl::"
        "AclrtSynchronizeStreamWithTimeOuts(stream),error code is 507011\n",
    )
    assert diagnosis.root_cause is None or "synchronize failed" not in diagnosis.root_cause
