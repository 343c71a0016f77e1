"""An AI CPU kernel's own check of its inputs, written to the device log.

docs/labelling.md#an-ai-cpu-kernel-that-refuses-its-inputs: the host's plog reports an AI CPU
exception (507018) with no reason; the kernel's device log says which input it refused, with
the kernel's source and function in brackets. That line is the first error and the label is
`operator`, with the corpus rule's `aicore_timeout` beside it. Values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, rules_of

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
