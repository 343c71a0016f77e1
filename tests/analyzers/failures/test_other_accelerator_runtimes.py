"""Failures as the runtimes of other accelerators print them.

Intel GPUs (Level Zero, oneCCL), Gaudi HPUs (SynapseAI, the PyTorch bridge), Kunlun XPUs
(XCCL, and the CUDA-compatible runtime under it), MetaX GPUs (the MACA runtime and driver) and
Moore Threads GPUs (the MTGPU kernel driver) word their failures in their own formats.
docs/labelling.md#collective-libraries-of-other-accelerators, #runtimes-of-other-accelerators and
#gaudi-graph-compiler-refusals give the labels; device memory that ran out is `oom` whatever
the library that asked for it, and an Intel device the runtime lost (Level Zero's or the
Unified Runtime's DEVICE_LOST status) is `device_fault` with `oom` beside it
(docs/labelling.md#runtimes-of-other-accelerators). Fixtures follow the real formats with numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

ONECCL_DEVICE_MEMORY = """\
[rank=5]: step=12 memory peak_mem_gib=3.5, current_mem_gib=3.5
2025:02:11-08:40:02:( 91822) |CCL_ERROR| worker.cpp:338 ccl_worker_func: worker 0 caught internal exception: oneCCL: ze_call.cpp:28 do_call: EXCEPTION: ze error at zeCommandQueueExecuteCommandLists, code: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY
terminate called after throwing an instance of 'ccl::v1::exception'
"""

XPU_DEVICE_LOST = """\
(EngineCore_DP0 pid=3301) INFO 06-02 10:14:31 [gpu_model_runner.py:2602] Model loading took 12.4 GiB and 41.08 seconds
(EngineCore_DP0 pid=3301) ERROR 06-02 10:14:55 [core.py:710] EngineCore failed to start.
(EngineCore_DP0 pid=3301) ERROR 06-02 10:14:55 [core.py:710]   File "/usr/local/lib/python3.12/dist-packages/torch/xpu/__init__.py", line 703, in synchronize
(EngineCore_DP0 pid=3301) ERROR 06-02 10:14:55 [core.py:710]     return torch._C._xpu_synchronize(device)
(EngineCore_DP0 pid=3301) ERROR 06-02 10:14:55 [core.py:710] RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)
(EngineCore_DP0 pid=3301) Process EngineCore_DP0:
"""

XPU_OUT_OF_RESOURCES = """\
(EngineCore_DP0 pid=3301) ERROR 06-02 10:14:55 [core.py:710] RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)
"""

ONECCL_NO_PROVIDER = """\
2025:03:02-11:05:17:( 7120) |CCL_WARN| did not find MPI-launcher specific variables, switch to ATL/OFI, to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi
2025:03:02-11:05:17:( 7120) |CCL_ERROR| atl_ofi_helper.cpp:867 atl_ofi_get_prov_list: fi_getinfo error: ret -61, providers 0
2025:03:02-11:05:17:( 7120) |CCL_ERROR| atl_ofi.cpp:243 init: can't find suitable provider
failed to initialize ATL
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
"""

PSM3_ASSERTION = """\
$ CCL_WORKER_COUNT=4 mpirun -np 4 ./allreduce_cpu
[1712000456.100200300] cn07:rank2.allreduce_cpu: Reading from remote process' memory failed. Disabling CMA support
cn07:rank2: Assertion failure at psm3/ptl_am/ptl.c:188: nbytes == req->req_data.recv_msglen

===================================================================================
=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
"""

XCCL_WINDOW = """\
[XCCL][util.cpp:349] dev 1 addr_window not properly set
[XCCL][init.cpp:1192] host 10.20.0.7 addr_window check failed
ValueError: [INVALID PARAMETER]: error code= 1(at .../torch_xmlir/csrc/new_xccl/XCCLUtils.hpp:53)
RuntimeError: Engine core initialization failed. See root cause above.
"""

HPU_DEVMEM = """\
Traceback (most recent call last):
  File "train.py", line 120, in step
    loss = model(**batch).loss
RuntimeError: [Rank:3] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::1073741824 (1024)MB
"""

SYNAPSE_NODE = """\
[rank1]: RuntimeError: synNodeCreateWithId failed for node: batch_gemm with synStatus 26 [Generic failure]. .
[rank0]: Traceback (most recent call last):
[rank0]:   File "train.py", line 88, in <module>
[rank0]:     main()
"""

SYNAPSE_KERNEL_LOG = """\
[08:12:40.512301][GC                    ][error][tid:1A2B3] Failed to load tpc kernel for node: TPC12, GUID: cast_f32_to_bf16. Got error: GLUE_FAILED
[08:12:40.512400][PASS_MANAGER          ][error][tid:1A2B3] Graph optimization failed pass: loadTpcKernels
[08:12:40.512480][SYN_API       ][error][tid:1A2B3] synGraphCompile: SYN_API_CALL failed status: 26[synFail]. graphHandle 0x55d0c0a01230
[08:12:40.512511][PT_BRIDGE       ][error][tid:1A2B3] /npu-stack/pytorch-integration/backend/synapse_helpers/graph.cpp: 599Graph compile failed. synStatus=synStatus 26 [Generic failure]. compile
"""

MTGPU_DMESG = """\
[31207.118043] MTGPU:(Error): 41230:  PID 2051 experienced error Guilty Lockup (0x1) caller[CheckFWCCB CTX Reset Noticication] [188]
[31207.120512] MTGPU:(Error): 41230:  PID 9934 experienced error Innocent Lockup (0x2) caller[CheckFWCCB CTX Reset Noticication] [188]
"""

MUSA_STDOUT = """\
Traceback (most recent call last):
  File "train.py", line 71, in <module>
    loss = criterion(outputs, labels.to(device))
RuntimeError: MUSA error: unknown error
"""


def test_oneccl_out_of_device_memory_is_oom_with_the_collective_beside_it() -> None:
    diagnosis = diagnose_text("logs/stdout.log", ONECCL_DEVICE_MEMORY)
    assert_reads(
        diagnosis, "oom", first_error="ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", beside=("hccl",)
    )


def test_oneccl_transport_without_a_provider_is_the_collective_layer() -> None:
    diagnosis = diagnose_text("logs/stdout.log", ONECCL_NO_PROVIDER)
    assert_reads(diagnosis, "hccl", first_error="fi_getinfo error: ret -61", beside=("driver_env",))


def test_a_psm_transport_assertion_is_the_collective_layer_before_the_bad_termination() -> None:
    diagnosis = diagnose_text("logs/mpirun.log", PSM3_ASSERTION)
    assert_reads(diagnosis, "hccl", first_error="Assertion failure at psm3/ptl_am/ptl.c")
    alternatives = alternative_labels(diagnosis)
    assert "device_fault" in alternatives or "config" in alternatives


def test_the_psm_note_that_it_disables_a_feature_is_no_failure() -> None:
    text = "[1712000456.100200300] cn07:rank2.allreduce_cpu: Reading from remote process' memory failed. Disabling CMA support\n"
    diagnosis = diagnose_text("logs/mpirun.log", text)
    assert diagnosis.first_error is None or "CMA" not in diagnosis.first_error.text


def test_kunlun_xccl_window_check_is_the_collective_layer_before_the_engine_wrapper() -> None:
    diagnosis = diagnose_text("logs/worker.log", XCCL_WINDOW)
    assert_reads(diagnosis, "hccl", first_error="addr_window")


def test_hpu_device_memory_allocator_failure_is_oom() -> None:
    diagnosis = diagnose_text("logs/stdout.log", HPU_DEVMEM)
    assert_reads(diagnosis, "oom", first_error="PT_DEVMEM Allocation failed")


def test_gaudi_node_the_graph_compiler_refused_is_an_operator_failure() -> None:
    diagnosis = diagnose_text("logs/stdout.log", SYNAPSE_NODE)
    assert_reads(
        diagnosis, "operator", first_error="synNodeCreateWithId failed for node: batch_gemm"
    )


def test_gaudi_kernel_that_did_not_load_comes_before_the_compile_failure() -> None:
    diagnosis = diagnose_text("logs/habana_log.txt", SYNAPSE_KERNEL_LOG)
    assert_reads(diagnosis, "operator", first_error="Failed to load tpc kernel")
    assert diagnosis.confidence >= 0.5


def test_mtgpu_guilty_lockup_is_a_device_fault() -> None:
    diagnosis = diagnose_files({"logs/dmesg.txt": MTGPU_DMESG, "logs/stdout.log": MUSA_STDOUT})
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert (
        "Guilty Lockup" in diagnosis.first_error.text or "MUSA error" in diagnosis.first_error.text
    )


# MetaX (MACA): the runtime's trap record of a kernel stopped on the device, then the worker's
# illegal-address answer; the trap record names no failure word.
MACA_TRAP = """\
(Worker_TP0 pid=611) INFO 03-14 02:17:40 [gpu_model_runner.py:2051] Model loading took 30.1 GiB
[02:17:45.093][MCR][E]mx_device.cpp :10106: trapping: kernelName: rms_norm_kernel ,commandIndex: 88 , trapType: Memory Violation(0x4)
[02:17:45.101][MCR][E]mc_runtime_api.cpp :215 : 611 : mcStreamSynchronize: Returned mcErrorIllegalAddress
(Worker_TP0 pid=611) ERROR 03-14 02:17:45 [multiproc_executor.py:671] RuntimeError: CUDA error: an illegal memory access was encountered
"""

MACA_RUNTIME_INFO_ONLY = """\
[02:17:40.002][MCR][I]mx_device.cpp :412 : device 3 opened, 64 GiB
[02:17:40.010][MCR][I]mx_device.cpp :420 : trap handler installed
"""

# MetaX: the kernel-driver wrapper's ioctl refused, repeated while the runtime retries.
MXKW_IOCTL = """\
[02:17:46.110][MXKW][E]queues.c                :925 : [mxkwAllocRingBuff]ioctl alloc ringbuffer failed -1
[02:18:06.114][MXKW][E]queues.c                :925 : [mxkwAllocRingBuff]ioctl alloc ringbuffer failed -1
"""

# Kunlun's CUDA-compatible runtime answering with CUDA's illegal-address status; the engine
# then finds its worker gone.
XPU_CUDA_COMPAT = """\
XX: (pid 4120,tid 140311950000000)cuda/src/api/apilaunch.cc:1064:cuapi_xpu_wait cuapi_xpu_wait() failed in cuiInitCheckEx, status= 700
XX: (pid 4120,tid 140311950000000)cuda/src/api/apimem.cc:302:cuapiMemFree_common cuapiMemFree() failed in cuiInitCheckCtx, Incompatible context or Context error, status= 700
(EngineCore pid=4051) ERROR 05-02 08:30:12 [multiproc_executor.py:284] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.
"""


def test_maca_kernel_trap_is_a_device_fault_before_the_illegal_address_answers() -> None:
    diagnosis = diagnose_text("logs/serve.log", MACA_TRAP)
    assert_reads(
        diagnosis, "device_fault", first_error="trapType: Memory Violation", beside=("operator",)
    )


def test_maca_runtime_information_lines_are_no_failure() -> None:
    diagnosis = diagnose_text("logs/serve.log", MACA_RUNTIME_INFO_ONLY)
    assert diagnosis.first_error is None


def test_maca_driver_ioctl_refused_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/check.log", MXKW_IOCTL)
    assert_reads(diagnosis, "driver_env", first_error="ioctl alloc ringbuffer failed")


def test_kunlun_cuda_compatible_runtime_illegal_address_is_a_device_fault() -> None:
    diagnosis = diagnose_text("logs/serve.log", XPU_CUDA_COMPAT)
    assert_reads(
        diagnosis, "device_fault", first_error="cuapi_xpu_wait() failed", beside=("config",)
    )


def test_kunlun_xccl_line_naming_the_unset_window_is_the_first_error() -> None:
    """The library says what it found wrong before its `check failed` verdict, in words with
    no error word; that first line is the first error."""
    diagnosis = diagnose_text("logs/worker.log", XCCL_WINDOW)
    assert diagnosis.first_error is not None
    assert "addr_window not properly set" in diagnosis.first_error.text


def test_an_xccl_line_that_reports_a_window_set_is_no_failure() -> None:
    text = "[XCCL][util.cpp:349] dev 1 addr_window set to 0x7f0000000000\n"
    diagnosis = diagnose_text("logs/worker.log", text)
    assert diagnosis.first_error is None


ONECCL_IPC_EXCEPTION_IN_ENGINE = """\
(EngineCore pid=812) INFO 03-09 16:20:44 [parallel_state.py:1190] world_size=2 rank=0 local_rank=0 backend=xccl
  File ".../vllm/v1/executor/abstract.py", line 131, in determine_available_memory
    return self.collective_rpc("determine_available_memory")
  File ".../vllm/v1/executor/multiproc_executor.py", line 355, in get_response
    raise RuntimeError(
RuntimeError: Worker failed with error 'oneCCL: ze_call.cpp:31 do_call: EXCEPTION: ze error at zeMemOpenIpcHandle, code: ZE_RESULT_ERROR_INVALID_ARGUMENT', please check the stack trace above for the root cause
"""

ONECCL_TRANSPORT_WAIT = """\
[2026-01-20 08:41:03][INFO][trainer:318] model sharded over 24 ranks, starting step 0
RuntimeError: oneCCL: allgatherv_ring.hpp:96 allgatherv_ring_blocking: EXCEPTION: atl_comm->wait(ep_idx, recv_req) fails with status: 2
"""

ONECCL_ERROR_LINE_THEN_EXCEPTION = """\
2025:06:14-09:30:12:(40417) |CCL_ERROR| ze_handle_manager.cpp:57 get_ipc_handle: condition fd_is_valid(device_fd) failed
RuntimeError: oneCCL: ze_handle_manager.cpp:57 get_ipc_handle: EXCEPTION: device_fd is invalid value
"""


def test_a_oneccl_exception_alone_is_the_collective_layer_with_the_host_beside_it() -> None:
    # docs/labelling.md#collective-libraries-of-other-accelerators: the exception text is the
    # only record of the library's failure; the engine's wrapper around it is the same line
    diagnosis = diagnose_text("logs/serve.log", ONECCL_IPC_EXCEPTION_IN_ENGINE)
    assert_reads(diagnosis, "hccl", first_error="zeMemOpenIpcHandle", beside=("driver_env",))


def test_a_oneccl_transport_wait_that_fails_is_the_collective_layer() -> None:
    diagnosis = diagnose_text("logs/rank13.log", ONECCL_TRANSPORT_WAIT)
    assert_reads(diagnosis, "hccl", first_error="atl_comm->wait")


def test_a_oneccl_error_line_before_its_exception_stays_the_first_error() -> None:
    diagnosis = diagnose_text("logs/stdout.log", ONECCL_ERROR_LINE_THEN_EXCEPTION)
    assert_reads(diagnosis, "hccl", first_error="|CCL_ERROR|")


def test_an_xpu_device_the_runtime_lost_is_a_device_fault_with_memory_beside_it() -> None:
    diagnosis = diagnose_text("serve/vllm_xpu.log", XPU_DEVICE_LOST)
    assert_reads(
        diagnosis, "device_fault", first_error="UR_RESULT_ERROR_DEVICE_LOST", beside=("oom",)
    )


def test_an_xpu_runtime_out_of_resources_is_not_a_lost_device() -> None:
    diagnosis = diagnose_text("serve/vllm_xpu.log", XPU_OUT_OF_RESOURCES)
    assert diagnosis.category != "device_fault", diagnosis.root_cause


XPU_OUT_OF_RESOURCES_THEN_UNKNOWN = """\
  File "C:\\\\apps\\\\gen\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\_tensor.py", line 1117, in __rdiv__
    return self.reciprocal() * other
RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)

Exception in thread Thread-4 (worker):
Traceback (most recent call last):
  File "C:\\\\apps\\\\gen\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\xpu\\\\__init__.py", line 703, in synchronize
    return torch._C._xpu_synchronize(device)
RuntimeError: level_zero backend failed with error: 2147483646 (UR_RESULT_ERROR_UNKNOWN)
"""

XPU_UNKNOWN_ONLY = """\
  File "/opt/app/venv/lib/python3.11/site-packages/torch/xpu/__init__.py", line 703, in synchronize
    return torch._C._xpu_synchronize(device)
RuntimeError: level_zero backend failed with error: 2147483646 (UR_RESULT_ERROR_UNKNOWN)
"""


def test_an_xpu_runtime_out_of_resources_is_oom_below_the_confident_band() -> None:
    """docs/labelling.md#runtimes-of-other-accelerators: resources the runtime could not get."""
    diagnosis = diagnose_text("serve/vllm_xpu.log", XPU_OUT_OF_RESOURCES)
    assert_reads(diagnosis, "oom", first_error="UR_RESULT_ERROR_OUT_OF_RESOURCES")
    assert {"device_fault", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_later_unknown_status_restates_the_resources_the_runtime_could_not_get() -> None:
    diagnosis = diagnose_text("gen/run.log", XPU_OUT_OF_RESOURCES_THEN_UNKNOWN)
    assert_reads(diagnosis, "oom", first_error="UR_RESULT_ERROR_OUT_OF_RESOURCES")


def test_an_unknown_runtime_status_alone_is_not_read_as_memory() -> None:
    diagnosis = diagnose_text("gen/run.log", XPU_UNKNOWN_ONLY)
    assert diagnosis.category != "oom", diagnosis.root_cause


XCCL_WAIT_TIMEOUT_LOGGED = """\
[rank1]: all_reduce issued, waiting
[E611 08:15:02.118204551 ProcessGroupXCCL.cpp:231] Work ran time out after 5012 milliseconds.
"""

XCCL_WAIT_TIMEOUT_QUOTED = """\
RuntimeError: Process 1 exited with error code 10 and exception:
Traceback (most recent call last):
  File "/opt/ci/torch/testing/_internal/common_distributed.py", line 830, in run_test
    getattr(self, test_name)()
  File "/opt/ci/test/distributed/test_collectives.py", line 140, in test_async_allreduce
    work.wait(datetime.timedelta(seconds=5))
RuntimeError: Work ran time out after 5260 milliseconds.
"""


def test_an_xccl_work_that_ran_past_its_wait_is_a_collective_timeout() -> None:
    diagnosis = diagnose_text("rank1.log", XCCL_WAIT_TIMEOUT_LOGGED)
    assert_reads(diagnosis, "hccl", first_error="Work ran time out after 5012 milliseconds")


def test_an_xccl_wait_timeout_quoted_by_a_test_harness_is_the_first_error() -> None:
    diagnosis = diagnose_text("ci/pytest.log", XCCL_WAIT_TIMEOUT_QUOTED)
    assert_reads(
        diagnosis, "hccl", first_error="Work ran time out after 5260 milliseconds", beside=("hang",)
    )


# Kunlun's runtime checks the hardware channel a kernel ran on and reports the exception it
# found there before the CUDA-compatible calls that then fail with status 700.
XPU_CHANNEL_EXCEPTION = """\
XX: (pid 7301,tid 139800000000001)cuda/src/cui/hal/kl3/kl3_gpfifo.cc:190:kl3ChannelCheckErrors kl3ChannelCheckErrors failed, error set to 4096, status= 700
XX: (pid 7301,tid 139800000000001)cuda/src/cui/hal/kl3/kl3_gpfifo.cc:191:kl3ChannelCheckErrors A kernel exception has occurred, please check dmesg for details.
XX: (pid 7301,tid 139800000000001)cuda/src/api/apilaunch.cc:790:cuapi_xpu_launch_async cuapi_xpu_launch_async() failed in cuiInitCheckEx, status= 700
terminate called after throwing an instance of 'std::runtime_error'
"""


def test_kunlun_channel_check_exception_comes_before_the_calls_that_fail_after_it() -> None:
    diagnosis = diagnose_text("logs/workerlog.0", XPU_CHANNEL_EXCEPTION)
    assert_reads(diagnosis, "device_fault", first_error="kl3ChannelCheckErrors failed")


def test_a_channel_check_that_passed_is_no_failure() -> None:
    text = (
        "XX: (pid 7301,tid 139800000000001)cuda/src/cui/hal/kl3/kl3_gpfifo.cc:150:"
        "kl3ChannelInit channel 3 ready, status= 0\n"
    )
    diagnosis = diagnose_text("logs/workerlog.0", text)
    assert diagnosis.first_error is None


# MetaX (MACA): the runtime recompiles a kernel for the device at launch; the compiler refuses
# it, and the launch returns the recompile status. The compiler's own crash line follows.
MACA_RECOMPILE = """\
[11:20:05.402][MCC][E]StatRecompileKernel recompile fail
[11:20:05.402][MCR][E]mc_recompile.cpp         :383 : Recompile kernel failed
[11:20:05.403][MCR][E]mc_runtime_api.cpp       :341 : 5120: [7f00aa001000] mcLaunchKernel: Returned mcErrorRecompile
[11:20:05.611][MCC][E]online build program ret(4352) error: Invalid record
fatal error: error in backend: Broken function found, compilation aborted!
mxcc: error: clang frontend command failed with exit code 70 (use -v to see invocation)
"""


def test_maca_kernel_recompile_failure_is_the_operator_before_the_compiler_crash() -> None:
    diagnosis = diagnose_text("logs/run.log", MACA_RECOMPILE)
    assert_reads(diagnosis, "operator", first_error="recompile fail", beside=("config",))


def test_a_maca_information_line_about_a_recompile_is_no_failure() -> None:
    text = "[11:20:05.402][MCR][I]mc_recompile.cpp :120 : recompile kernel cache hit for gemm_f16\n"
    diagnosis = diagnose_text("logs/run.log", text)
    assert diagnosis.first_error is None


# Paddle's XPU kernels check what the XPU kernel library (XDNN / the XPU API) returned and raise
# it as an external error naming the kernel's source.
PADDLE_XDNN_ERROR = """\
Traceback (most recent call last):
  File "tools/train.py", line 90, in <module>
    loss.backward()
OSError: (External) concat XDNN Error, XDNN_RUNTIME_ERROR  (at /paddle/paddle/phi/kernels/xpu/concat_grad_kernel.cc:61)
"""


def test_an_xdnn_error_from_a_paddle_xpu_kernel_is_the_operator() -> None:
    diagnosis = diagnose_text("logs/train.log", PADDLE_XDNN_ERROR)
    assert_reads(diagnosis, "operator", first_error="XDNN_RUNTIME_ERROR", beside=("device_fault",))


def test_an_xpu_api_wrong_value_is_the_operator() -> None:
    text = (
        "OSError: (External) XPU API 3rd Gather kernel returns wrong value"
        "[2 xpu api invalid param]\n"
    )
    diagnosis = diagnose_text("logs/train.log", text)
    assert diagnosis.category == "operator", diagnosis.root_cause


# PSM2 on an Omni-Path node cannot open an adapter context for a rank when Intel MPI starts
# (contexts used up, a locked-memory limit too low) and Intel MPI finds its fabric unavailable;
# the host's adapter and limits change, not the collective's protocol.
# docs/labelling.md#collective-libraries-of-other-accelerators
PSM2_NO_CONTEXT = """\
[0] [0] MPI startup(): Multi-threaded optimized library
[3] cn21.48211hfi_userinit: mmap of rcvhdrq at dabbad0008020000 failed: Resource temporarily unavailable
[3] cn21.48211hfp_gen1_context_open: hfi_userinit: failed, trying again (1/3)
[3] cn21.48211hfi_userinit: assign_context command failed: Invalid argument
[3] cn21.48211PSM2 can't open hfi unit: -1 (err=23)
[3] [3] MPI startup(): ofi fabric is not available and fallback fabric is not enabled
"""

PSM2_RETRY_ONLY = """\
[0] [0] MPI startup(): Multi-threaded optimized library
[3] cn21.48211hfp_gen1_context_open: hfi_userinit: failed, trying again (1/3)
"""


def test_psm2_that_cannot_open_an_adapter_context_is_the_host_set_up() -> None:
    diagnosis = diagnose_text("logs/stdout.log", PSM2_NO_CONTEXT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="hfi_userinit: mmap of rcvhdrq",
        rule="env.psm2_adapter_context_unavailable",
        beside=("hccl",),
    )


def test_a_psm2_retry_notice_alone_is_not_read_as_the_adapter_refusal() -> None:
    diagnosis = diagnose_text("logs/stdout.log", PSM2_RETRY_ONLY)
    assert "env.psm2_adapter_context_unavailable" not in rules_of(diagnosis)
