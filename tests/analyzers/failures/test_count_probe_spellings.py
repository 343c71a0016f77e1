"""One failed device count, written several ways in a CANN log.

A container or host whose driver will not count the NPUs leaves a run of `[ERROR]` lines: a
component asking for the count, the runtime's call into the driver with the driver's return
code, the runtime's own return code and its reason line. They are all the same probe, so the
earliest is the first error; a line that says why the count failed still comes first.

docs/labelling.md#probes-yield-to-their-reason
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

COUNT_REFUSED = """\
[ERROR] DVPP(77,):2026-04-08-07:01:02.300.100 [PlatformInfo.cpp:37][DVPP] [GetHardwareVersion:37] [T2] get device num fail. ret = 507899
[ERROR] RUNTIME(77,):2026-04-08-07:01:02.300.700 [driver.cc:64]77 GetDeviceCount:Call drvGetDevNum, drvRetCode=87.
[ERROR] RUNTIME(77,):2026-04-08-07:01:02.300.750 [api_c_device.cc:28]77 rtGetDeviceCount:ErrCode=507899, desc=[driver error:internal error], InnerCode=0x7020010
[ERROR] RUNTIME(77,):2026-04-08-07:01:02.300.790 [error_message_manage.cc:53]77 FuncErrorReason:report error module_type=3, module_name=EE8888
[ERROR] RUNTIME(77,):2026-04-08-07:01:02.300.830 [error_message_manage.cc:53]77 FuncErrorReason:rtGetDeviceCount execute failed, reason=[driver error:internal error]
"""

# The runtime's spelling without the component's request in front of it.
RUNTIME_ONLY = """\
[ERROR] RUNTIME(90,python3):2026-04-08-07:05:00.100.100 [driver.cc:64]90 GetDeviceCount:Call drvGetDevNum, drvRetCode=87.
[ERROR] RUNTIME(90,python3):2026-04-08-07:05:00.100.200 [api_c_device.cc:28]90 rtGetDeviceCount:ErrCode=507899, desc=[driver error:internal error], InnerCode=0x7020010
[ERROR] RUNTIME(90,python3):2026-04-08-07:05:00.100.300 [error_message_manage.cc:53]90 FuncErrorReason:rtGetDeviceCount execute failed, reason=[driver error:internal error]
"""

# Counterexample: the process could not open the device nodes; that is why the count failed.
REASON_AFTER_PROBE = """\
[ERROR] RUNTIME(12,python3):2026-04-08-07:09:00.000.100 [driver.cc:64]12 GetDeviceCount:Call drvGetDevNum, drvRetCode=87.
open /dev/davinci_manager failed: Permission denied
"""

# Counterexample: a count that worked is logged at INFO with a zero return code.
COUNT_WORKED = """\
[INFO] RUNTIME(12,python3):2026-04-08-07:09:00.000.100 [driver.cc:60]12 GetDeviceCount:Call drvGetDevNum, drvRetCode=0, device num=8.
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 59.10 GiB already allocated; 59.10 GiB current active; 1.20 GiB free; 59.40 GiB reserved in total by PyTorch)
"""


def test_the_earliest_spelling_of_a_refused_count_is_the_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-77_20260408070102.log", COUNT_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="get device num fail. ret = 507899")


def test_the_runtime_call_into_the_driver_is_the_probe_too() -> None:
    diagnosis = diagnose_text("plog/plog-90_20260408070500.log", RUNTIME_ONLY)
    assert_reads(diagnosis, "driver_env", first_error="drvGetDevNum, drvRetCode=87")


def test_a_reason_for_the_refused_count_still_comes_first() -> None:
    diagnosis = diagnose_text("job/rank0.log", REASON_AFTER_PROBE)
    assert_reads(diagnosis, "driver_env", first_error="Permission denied")


def test_a_count_that_worked_is_no_probe_failure() -> None:
    diagnosis = diagnose_text("job/rank0.log", COUNT_WORKED)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# The runtime's failed fetch of a device's error message runs on the error path of a call that
# already failed; a helper thread's count probe can be printed after it.
CONTEXT_FETCH_BEFORE_PROBE = """\
[ERROR] RUNTIME(3,python3.10):2026-04-08-08:12:30.401.220 [error_message_manage.cc:48]3 FuncErrorReason:report error module_name=EE1001
[ERROR] RUNTIME(3,python3.10):2026-04-08-08:12:30.401.318 [error_message_manage.cc:48]3 FuncErrorReason:rtGetDevMsg execute failed, reason=[context pointer null]
[ERROR] IDEDD(3,python3.10):2026-04-08-08:12:30.472.905 [adx_dsmi.cpp:54][tid:142]>>> Get physical device number failed, err: 87
[ERROR] IDEDD(3,python3.10):2026-04-08-08:12:30.973.311 [adx_dsmi.cpp:54][tid:142]>>> Get physical device number failed, err: 87
"""

# Counterexample: nothing else was left of the block; the failed fetch is still the first error.
CONTEXT_FETCH_ALONE = """\
[ERROR] RUNTIME(3,python3.10):2026-04-08-08:14:02.101.220 [error_message_manage.cc:48]3 FuncErrorReason:report error module_name=EE1001
[ERROR] RUNTIME(3,python3.10):2026-04-08-08:14:02.101.318 [error_message_manage.cc:48]3 FuncErrorReason:rtGetDevMsg execute failed, reason=[context pointer null]
"""


def test_a_failed_error_message_fetch_yields_to_the_count_probe_printed_after_it() -> None:
    diagnosis = diagnose_text("plog/plog-3_20260408081230.log", CONTEXT_FETCH_BEFORE_PROBE)
    assert_reads(diagnosis, "driver_env", first_error="Get physical device number failed, err: 87")


def test_a_failed_error_message_fetch_alone_is_still_the_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-3_20260408081402.log", CONTEXT_FETCH_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="rtGetDevMsg execute failed")


# torch_npu's own spelling of the refused count, logged by its APP module; the runtime's code is
# only in an INFO line before it.
TORCH_NPU_COUNT_REFUSED = """\
[INFO] RUNTIME(305,python3):2026-04-08-09:20:11.204.118 [api_impl.cc:7817] 305 PeekLastErr: level=0 err=507899.
[ERROR] APP(305,python3):2026-04-08-09:20:11.204.161 [log_inner.cpp:77]305 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:device_count:41: "[PTA]:"get device count of NPU failed""
INFO 04-08 09:20:11 [__init__.py:207] Platform plugin ascend is activated
"""

# Counterexample: the same words reporting a count that worked are no failure.
TORCH_NPU_COUNT_WORKED = """\
INFO torch_npu: get device count of NPU: 8
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 59.10 GiB already allocated; 59.10 GiB current active; 1.20 GiB free; 59.40 GiB reserved in total by PyTorch)
"""


def test_torch_npu_spelling_of_a_refused_count_is_the_probe() -> None:
    diagnosis = diagnose_text("job/worker.log", TORCH_NPU_COUNT_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="get device count of NPU failed")


def test_torch_npu_count_that_worked_is_no_probe_failure() -> None:
    diagnosis = diagnose_text("job/worker.log", TORCH_NPU_COUNT_WORKED)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# The runtime's reason lines of a count and of the default device's choice both quote the
# driver's error; the process has not run anything on a device yet.
PROBE_REASON_IS_DRIVER_ERROR = """\
(Worker_TP1 pid=4410)         rtGetDeviceCount execution failed, reason=driver error:internal error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
(Worker_TP1 pid=4410)         get device count failed, runtime result = 507899.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
(Worker_TP1 pid=4410)         rtSetDefaultDeviceId execution failed, reason=driver error:internal error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""

# Counterexample: a driver call that fails under a running job (a completion queue read) keeps
# the device-fault reading of a failed driver call.
RUNNING_DRIVER_CALL = """\
[ERROR] RUNTIME(51,python3):2026-04-08-10:02:03.100.200 [npu_driver.cc:1450]51 LogicCqReportV2:[drv api] halCqReportRecv failed: device_id=3, ts_id=0, type=2, logic_cq=9, drv_ret_code=33
"""


def test_a_probe_whose_reason_is_the_drivers_error_offers_no_device_fault() -> None:
    """docs/labelling.md#probes-yield-to-their-reason"""
    diagnosis = diagnose_text("worker_tp1.log", PROBE_REASON_IS_DRIVER_ERROR)
    assert_reads(diagnosis, "driver_env", first_error="rtGetDeviceCount execution failed")
    assert "device_fault" not in {alt.category for alt in diagnosis.alternatives}


def test_a_driver_call_that_fails_in_a_running_job_is_still_read_as_one() -> None:
    diagnosis = diagnose_text("plog/plog-51_20260408100203.log", RUNNING_DRIVER_CALL)
    labels = {diagnosis.category} | {alt.category for alt in diagnosis.alternatives}
    assert "device_fault" in labels, diagnosis.root_cause


# torch's start-up warning for a runtime built on its device template (CUDA's, and backends
# that reuse it under their own prefix) carries the count that failed and the runtime's reason;
# the engine's assert that finds no device afterwards only restates it.
TEMPLATE_COUNT_WARNING = """\
/opt/venv/lib/python3.10/site-packages/torch_musa/core/device.py:150: UserWarning: MUSA initialization: Unexpected error from musaGetDeviceCount(). Did you run some musa functions before calling NumCudaDevices() that might have already set an error? Error 3: initialization error (Triggered internally at /build/torch_musa/csrc/core/Device.cpp:90.)
  return torch_musa._MUSAC._musa_getDeviceCount()
Traceback (most recent call last):
  File "serve.py", line 9, in <module>
    assert count > 0
AssertionError
"""


def test_a_template_runtimes_count_warning_is_the_probe() -> None:
    diagnosis = diagnose_text("serve.log", TEMPLATE_COUNT_WARNING)
    assert_reads(diagnosis, "driver_env", first_error="Unexpected error from musaGetDeviceCount()")


# c10 names the function that raised; a paste that kept only that line and the frames still
# says the device count failed.
COUNT_LOCATION_ONLY = """\
Exception raised from deviceCount at /build/pytorch/aten/src/ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h:99 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x55 (0x7f10aa000000 in /opt/venv/lib/python3.9/site-packages/torch/lib/libc10.so)
frame #1: <unknown function> + 0x4a1b2c (0x7f10ab000000 in /opt/venv/lib/python3.9/site-packages/torch/lib/libtorch_hip.so)
"""


def test_c10s_location_of_a_failed_count_is_the_probe() -> None:
    diagnosis = diagnose_text("train.log", COUNT_LOCATION_ONLY)
    assert_reads(diagnosis, "driver_env", first_error="Exception raised from deviceCount")


def test_c10s_location_of_another_call_is_not_the_probe() -> None:
    text = COUNT_LOCATION_ONLY.replace("from deviceCount", "from getDevice")
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "driver_env" or diagnosis.first_error is None
