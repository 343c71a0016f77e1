"""An AI CPU kernel's own check of its inputs, written to the device log.

docs/labelling.md#an-ai-cpu-kernel-that-refuses-its-inputs: the host's plog reports an AI CPU
exception (507018) with no reason; the kernel's device log says which input it refused, with
the kernel's source and function in brackets. That line is the first error and the label is
`operator`, with the corpus rule's `aicore_timeout` beside it. Values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, rules_of

PLOG = """\
[ERROR] RUNTIME(7310,python3):2026-09-02-10:11:12.100.200 [engine.cc:1103]7344 ReportExceptProc:Task exception! device_id=1, stream_id=3, task_id=18, type=1, retCode=0x2a, [aicpu exception].
[ERROR] RUNTIME(7310,python3):2026-09-02-10:11:12.100.260 [device_error_proc.cc:669]7344 ProcessAicpuErrorInfo:An exception occurred during AICPU execution, stream_id:3, task_id:18, errcode:5, msg:aicpu execute failed.
[ERROR] RUNTIME(7310,python3):2026-09-02-10:11:12.101.010 [api_c.cc:661]7310 rtStreamSynchronize:ErrCode=507018, desc=[aicpu exception], InnerCode=0x715002a
"""

DEVICE = """\
[ERROR] AICPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.900 [scatter_nd.cc:88][CheckParams][tid:9131]Indices must be at least rank [2] but is rank [1]
[ERROR] AICPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.950 [scatter_nd.cc:120][Compute][tid:9131]CheckParams failed
[ERROR] CCECPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.990 [aicpusd_event_process.cpp:666][PostProcessTsKernelTask][tid:9131] Aicpu engine process failed, result[4294967295], opName[ScatterNd], streamId[3], taskId[18].
"""

# The kernel's own progress and a failure with no check in its words.
DEVICE_NO_CHECK = """\
[INFO] AICPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.900 [scatter_nd.cc:60][CheckParams][tid:9131]indices must be int32 or int64, got int64
[ERROR] AICPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.950 [scatter_nd.cc:120][Compute][tid:9131]CheckParams failed
"""


def test_the_kernels_refusal_in_the_device_log_is_the_first_error() -> None:
    diagnosis = diagnose_files({"plog/plog-7310_1.log": PLOG, "device-1/device-9120_1.log": DEVICE})
    assert_reads(
        diagnosis,
        "operator",
        first_error="Indices must be at least rank [2]",
        rule="op.aicpu_kernel_input_check",
        beside=("aicore_timeout",),
    )
    assert diagnosis.confidence < 0.8  # careful readers keep the device's reading too


def test_without_the_kernels_words_the_exception_keeps_its_reading() -> None:
    diagnosis = diagnose_files(
        {"plog/plog-7310_1.log": PLOG, "device-1/device-9120_1.log": DEVICE_NO_CHECK}
    )
    assert diagnosis.category == "aicore_timeout", diagnosis.root_cause
    assert "op.aicpu_kernel_input_check" not in rules_of(diagnosis)


# Kernels the AI CPU runs through its TensorFlow adapter report a refusal as the adapter's run
# failure, with TensorFlow's status name in front of the kernel's words; the adapter's tag
# stands between the thread and the text, and the function bracket may be missing.
DEVICE_TF_ADAPTER = """\
[ERROR] CCECPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.900 [aicpu_tf_kernel.cc:351][tid:9131][TFAdapter] AICPUKernelAndDevice::Run failure, kernel_id=3, op_name=SegmentSum, op_type=SegmentSum, error=Invalid argument: segment_ids should be the same size as dimension 0 of input.
[ERROR] CCECPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.930 [tf_adpt_session_mgr.cc:74][tid:9131][TFAdapter] [sessionID:0] Failed to Run kernel, kernel_id=3.
[ERROR] CCECPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.990 [aicpusd_event_process.cpp:1325][ExecuteTsKernelTask][tid:9131] Aicpu engine process failed, result[5].
"""

# The same adapter turning down a broadcast its kernel does not implement, alone in a device log.
DEVICE_TF_UNIMPLEMENTED = """\
[ERROR] CCECPU(4402,aicpu_scheduler):2026-10-07-08:30:41.210.118 [aicpu_tf_kernel.cc:363][ProcessKernelRunOutput][tid:4410][TFAdapter]AICPUKernelAndDevice::Run failure, kernel_id=20, op_name=LeftShift, op_type=LeftShift, error=UNIMPLEMENTED: Broadcast between [4,1,6,2,9,3,5] and [2,4,3,6,1,9,1,5] is not supported yet.
[ERROR] CCECPU(4402,aicpu_scheduler):2026-10-07-08:30:41.210.160 [aicpu_tf_kernel_cache.cc:273][RunKernel][tid:4410][TFAdapter]Failed to Run kernel, kernel_id=20.
"""

# Counterexample: a run failure whose status is the adapter's own, not a refusal of an input.
DEVICE_TF_INTERNAL = """\
[ERROR] CCECPU(9120,aicpu_scheduler):2026-09-02-10:11:12.099.900 [aicpu_tf_kernel.cc:351][tid:9131][TFAdapter] AICPUKernelAndDevice::Run failure, kernel_id=3, op_name=SegmentSum, op_type=SegmentSum, error=Internal: kernel session was reset.
"""


def test_the_tensorflow_adapters_refusal_is_the_first_error() -> None:
    diagnosis = diagnose_files(
        {"plog/plog-7310_1.log": PLOG, "device-1/device-9120_1.log": DEVICE_TF_ADAPTER}
    )
    assert_reads(
        diagnosis,
        "operator",
        first_error="segment_ids should be the same size",
        rule="op.aicpu_kernel_input_check",
        beside=("aicore_timeout",),
    )


def test_an_unimplemented_broadcast_offers_the_ops_limit() -> None:
    diagnosis = diagnose_files({"device-0/device-4402_1.log": DEVICE_TF_UNIMPLEMENTED})
    assert_reads(
        diagnosis,
        "operator",
        first_error="is not supported yet",
        rule="op.aicpu_kernel_input_check",
        beside=("op_constraint",),
    )


def test_an_adapter_failure_that_refuses_nothing_keeps_the_exceptions_reading() -> None:
    diagnosis = diagnose_files(
        {"plog/plog-7310_1.log": PLOG, "device-1/device-9120_1.log": DEVICE_TF_INTERNAL}
    )
    assert diagnosis.category == "aicore_timeout", diagnosis.root_cause
    assert "op.aicpu_kernel_input_check" not in rules_of(diagnosis)


# The scheduler looked the kernel's entry point up in the library its registration names and
# found none; the host's block says only that the library could not be used.
PLOG_OPEN_SO = """\
[ERROR] RUNTIME(5102,bench):2026-08-11-09:30:01.100.400 [device_error_proc.cc:1644]5140 ProcessStarsAicpuErrorInfo:The error from device(chipId:0, dieId:0), serial number is 7, an exception occurred during AICPU execution, stream_id:12, task_id:0, errcode:11002, msg:open so failed.
[ERROR] RUNTIME(5102,bench):2026-08-11-09:30:01.100.500 [davinci_kernel_task.cc:1435]5140 PrintAicpuErrorInfo:Aicpu kernel execute failed, device_id=0, stream_id=12, task_id=0, soName=libflag_kernels.so, funcName=WaitFlag, kernelName=WaitFlag, errorCode=0x2a.
[ERROR] RUNTIME(5102,bench):2026-08-11-09:30:01.100.900 [api_c_stream.cc:161]5102 rtStreamSynchronize:ErrCode=507018, desc=[aicpu exception], InnerCode=0x715002a
"""

DEVICE_ENTRY_MISSING = """\
[ERROR] CCECPU(880,aicpu_scheduler):2026-08-11-09:30:02.000.100 [ae_kernel_lib_aicpu.cc:177][CallKernelApi][tid:893][AICPU_PROCESSER] Get WaitFlag api from libflag_kernels.so failed.
[ERROR] CCECPU(880,aicpu_scheduler):2026-08-11-09:30:02.000.110 [aicpusd_event_process.cpp:906][PostProcessTsKernelTask][tid:893] Aicpu engine process failed, result[11002], opName[null], streamId[12], taskId[0].
"""


def test_a_kernel_entry_missing_from_its_library_is_the_operators() -> None:
    diagnosis = diagnose_files(
        {"plog/plog-5102_1.log": PLOG_OPEN_SO, "device-0/device-880_1.log": DEVICE_ENTRY_MISSING}
    )
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "op.aicpu_kernel_entry_not_found" in rules_of(diagnosis)
    assert "aicore_timeout" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.8


def test_without_the_device_log_open_so_failed_keeps_the_exceptions_reading() -> None:
    diagnosis = diagnose_files({"plog/plog-5102_1.log": PLOG_OPEN_SO})
    assert diagnosis.category == "aicore_timeout", diagnosis.root_cause
    assert "op.aicpu_kernel_entry_not_found" not in rules_of(diagnosis)
