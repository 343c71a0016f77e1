"""Failures that AMD GPUs report in the ROCm runtime's own words.

- The HSA runtime's GPU fault lines (`Memory access fault by GPU node-N ... Reason: ...`,
  `HW Exception by GPU node-N ... reason :GPU Hang`) carry no error word and come before the
  abort; every process on the device prints a copy, and peers then lose their connections.
- HIP's `invalid device function`: the build has no code object for the card, wherever the
  call that hit it sits (here a collective's broadcast during FSDP set-up).
- torch's `No HIP GPUs are available`: the process sees no device at all.
- The HIP runtime's callback for a queue the hardware stopped (`Callback: Queue 0x...
  aborting with error : HSA_STATUS_ERROR_EXCEPTION: ... code: 0x1016`), printed at every log
  level before the abort: a device fault, while a queue stopped for want of resources is not.
  docs/labelling.md#a-gpu-fault-the-rocm-runtime-reports
- The same HSA status quoted without the callback, or reflowed so that the status name, the
  runtime's sentence and the code stand on lines of their own: still the device fault, and
  the first of those lines comes before torch's `unspecified launch failure`.
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MEMORY_ACCESS_FAULTS = """\
(Worker_TP1 pid=4471) INFO 03-02 11:40:07 [gpu_model_runner.py:2214] Model loading took 7.9 GiB
Memory access fault by GPU node-3 (Agent handle: 0x5b2e9c40) on address 0x7f1c2a400000. Reason: Page not present or supervisor privilege.
Memory access fault by GPU node-4 (Agent handle: 0x1d7a3310) on address 0x7e88b1200000. Reason: Page not present or supervisor privilege.
GPU core dump failed
[rank0]:[W302 11:40:09.118230611 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=41, addr=[c3f0a9]:40122, remote=[c3f0a9]:51377): Connection reset by peer
Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:675 (most recent call first):
"""

GPU_HANG = """\
{'loss': 1.0312, 'grad_norm': 0.8127, 'learning_rate': 1.9e-05, 'epoch': 0.41}
 12%|█▎        | 88/730 [1:02:11<7:33:40, 42.40s/it]HW Exception by GPU node-4 (Agent handle: 0x55d0c1e2f9b0) reason :GPU Hang
HW Exception by GPU node-4 (Agent handle: 0x61a7e03c4d20) reason :GPU Hang
Aborted (core dumped)
"""

INVALID_DEVICE_FUNCTION = """\
(WorkerDict pid=4410)   File "/usr/local/lib/python3.12/dist-packages/torch/distributed/utils.py", line 322, in _sync_params_and_buffers
(WorkerDict pid=4410)     dist._broadcast_coalesced(
(WorkerDict pid=4410) RuntimeError: HIP error: invalid device function
(WorkerDict pid=4410) HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
(WorkerDict pid=4410) For debugging consider passing AMD_SERIALIZE_KERNEL=3
"""

NO_HIP_GPUS = """\
  File "/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py", line 319, in _lazy_init
    torch._C._cuda_init()
RuntimeError: No HIP GPUs are available
"""

QUEUE_HARDWARE_EXCEPTION = """\
[2026-02-14 09:12:41 TP3] Decode batch. #running-req: 41, #token: 90112, token usage: 0.22, gen throughput (token/s): 1650.12
:0:rocdevice.cpp            :3586: 52210093412 us:  Callback: Queue 0x7f5a91c00000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016
:0:rocdevice.cpp            :3586: 52210214177 us:  Callback: Queue 0x7e0c44e00000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016
Fatal Python error: Aborted
"""

HSA_STATUS_REFLOWED = """\
prefill tokens=[281904]
kv_cache_usage=0.2214

HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:
The agent attempted to access memory beyond the largest legal address.
code: 0x29

c10::AcceleratorError:
CUDA error: unspecified launch failure
Worker proc VllmWorker-3 died unexpectedly
"""

HSA_STATUS_WITHOUT_CALLBACK = """\
[2026-03-09 14:02:17 TP1] Decode batch. #running-req: 12, #token: 30208, token usage: 0.07
HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016
Fatal Python error: Aborted
"""

HSA_STATUS_NAMED_IN_A_NOTE = """\
[2026-03-09 14:02:17 TP1] INFO: set HSA_STATUS_ERROR_EXCEPTION_DUMP=1 to keep a dump when a queue faults
[2026-03-09 14:02:18 TP1] Load weight end. type=Qwen3ForCausalLM, avail mem=120.4 GB
"""

QUEUE_OUT_OF_RESOURCES = """\
:0:rocdevice.cpp            :3586: 52210093412 us:  Callback: Queue 0x7f5a91c00000 aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. code: 0x1008
Aborted (core dumped)
"""


def test_first_memory_access_fault_is_the_device_fault() -> None:
    # Two workers fault on their devices; a third rank's reset connection is the cascade.
    diagnosis = diagnose_text("serve/vllm_serve.log", MEMORY_ACCESS_FAULTS)
    assert_reads(diagnosis, "device_fault", first_error="Memory access fault by GPU node-3")


def test_gpu_hang_exception_outranks_the_abort() -> None:
    diagnosis = diagnose_text("train/train.log", GPU_HANG)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="HW Exception by GPU node-4 (Agent handle: 0x55d0c1e2f9b0)",
    )


def test_invalid_device_function_is_a_build_for_another_gpu() -> None:
    # The broadcast frame is only where the missing kernel surfaced, not a collective failure.
    diagnosis = diagnose_text("train/task_runner.log", INVALID_DEVICE_FUNCTION)
    assert_reads(diagnosis, "config", first_error="HIP error: invalid device function")
    assert {"driver_env", "operator"} & {alt.category for alt in diagnosis.alternatives}


def test_no_hip_gpus_is_a_device_the_process_cannot_see() -> None:
    diagnosis = diagnose_text("train/main.log", NO_HIP_GPUS)
    assert_reads(diagnosis, "driver_env", first_error="No HIP GPUs are available")


def test_a_queue_stopped_by_a_hardware_exception_is_a_device_fault() -> None:
    # Two scheduler processes print the runtime's callback; the first is the first error.
    diagnosis = diagnose_text("serve/sglang_tp8.log", QUEUE_HARDWARE_EXCEPTION)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Queue 0x7f5a91c00000 aborting with error",
        beside=("operator",),
    )


def test_a_queue_stopped_for_want_of_resources_is_not_read_as_a_device_fault() -> None:
    diagnosis = diagnose_text("serve/sglang_tp8.log", QUEUE_OUT_OF_RESOURCES)
    assert diagnosis.category != "device_fault", diagnosis.root_cause


def test_a_queue_stopped_for_want_of_resources_is_oom_with_the_device_beside_it() -> None:
    """docs/labelling.md#runtimes-of-other-accelerators: resources the runtime could not get."""
    diagnosis = diagnose_text("serve/sglang_tp8.log", QUEUE_OUT_OF_RESOURCES)
    assert_reads(
        diagnosis, "oom", first_error="HSA_STATUS_ERROR_OUT_OF_RESOURCES", beside=("device_fault",)
    )


def test_a_reflowed_hsa_status_is_the_device_fault_before_the_launch_failure() -> None:
    diagnosis = diagnose_text("serve/vllm_tp8.log", HSA_STATUS_REFLOWED)
    assert_reads(
        diagnosis, "device_fault", first_error="HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION"
    )


def test_an_hsa_status_quoted_without_the_callback_is_the_device_fault() -> None:
    diagnosis = diagnose_text("serve/sglang_tp2.log", HSA_STATUS_WITHOUT_CALLBACK)
    assert_reads(
        diagnosis, "device_fault", first_error="HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation"
    )


def test_an_hsa_status_named_in_a_setting_is_no_fault() -> None:
    diagnosis = diagnose_text("serve/sglang_tp2.log", HSA_STATUS_NAMED_IN_A_NOTE)
    assert diagnosis.category != "device_fault", diagnosis.root_cause


# The queue callback whose status name did not survive the paste: a progress bar or a terminal
# redraw wrote over it, so only the runtime's fixed start of the line says what happened. A
# Ctrl-C traceback the reporter added afterwards is no failure of the job.
QUEUE_CALLBACK_STATUS_OVERWRITTEN = """\
Processed prompts:  63%|██████▎   | 629/1000 [00:41<00:24, 15.3it/s]
:0:rocdevice.cpp            :2890: 77120455310d us:  Callback: Queue 0x7e21c0a00000 aborting with error : HSA[17/880]
MORY_FAULT: Agent attempted to access an inaccessible address. code: 0x2b
^CTraceback (most recent call last):
  File "/srv/bench/offline_throughput.py", line 212, in <module>
    run(args)
"""

# The runtime's note that it creates a queue, and the callback with a status that names
# resources it could not get, are no device fault.
QUEUE_CALLBACK_COUNTEREXAMPLES = """\
:3:rocdevice.cpp            :2410: 4411020100 us: [pid:5120 tid: 0x7f0ff3fff640] Created SWq=0x7e21c0a00000 to map on HWq=0x7d1100200000 with size 16384
:0:rocdevice.cpp            :2890: 77120455310 us:  Callback: Queue 0x7e21c0a00000 aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. code: 0x1008
"""

# ROCr's report of a memory error the kernel driver raised for a GPU agent (the memory-error
# event: a range the driver was asked to free while the GPU still used it), printed with no
# error word before the process aborts.
MEMORY_CRITICAL_ERROR = """\
[hsaKmtFreeMemoryCtx] address 0x7fa2c4e10000
Memory critical error by agent node-1 (Agent handle: 0x55c1e7a20b10) on address 0x7fa2c4e10000. Reason: Memory in use.
Aborted (core dumped)
"""

MEMORY_CRITICAL_ERROR_IN_A_NOTE = """\
[2026-05-02 08:10:11] INFO the runtime reports memory critical errors by agent node in dmesg-like form
"""

# HIP's own debug log (AMD_LOG_LEVEL, level 1 = error) when it cannot export a buffer for
# inter-process sharing; the API's return after it only restates the refusal.
HIP_IPC_EXPORT_REFUSED = """\
:3:hip_memory.cpp           :3340: 9120441 us: [pid:2211 tid:0x7f51aa] hipIpcGetMemHandle ( 0x7ffd4c1e8a40, 0x7f2a81000000 )
:1:rocmemory.cpp            :1043: 9120480 us: [pid:2211 tid:0x7f51aa] Failed to create memory for IPC, failed with hsa_status: 4097
:1:hip_memory.cpp           :3354: 9120491 us: [pid:2211 tid:0x7f51aa] IPC memory creation failed for memory: 0x7f2a81000000
hipIpcGetMemHandle -> 1 (invalid argument)
"""


def test_a_queue_callback_whose_status_was_overwritten_is_still_the_device_fault() -> None:
    diagnosis = diagnose_text("bench/throughput.log", QUEUE_CALLBACK_STATUS_OVERWRITTEN)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Queue 0x7e21c0a00000 aborting with error",
        beside=("operator",),
    )


def test_a_queue_note_and_a_resources_callback_are_not_the_overwritten_status_rule() -> None:
    diagnosis = diagnose_text("bench/throughput.log", QUEUE_CALLBACK_COUNTEREXAMPLES)
    assert diagnosis.category == "oom", diagnosis.root_cause


def test_a_memory_critical_error_by_an_agent_is_a_device_fault() -> None:
    diagnosis = diagnose_text("train/train.log", MEMORY_CRITICAL_ERROR)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Memory critical error by agent node-1",
        beside=("driver_env",),
    )


def test_memory_critical_error_named_in_a_note_is_no_fault() -> None:
    diagnosis = diagnose_text("train/train.log", MEMORY_CRITICAL_ERROR_IN_A_NOTE)
    assert diagnosis.category != "device_fault", diagnosis.root_cause


def test_hip_refusing_to_export_ipc_memory_is_the_hosts_runtime_setup() -> None:
    diagnosis = diagnose_text("repro/ipc_check.log", HIP_IPC_EXPORT_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="Failed to create memory for IPC")
    assert {"config", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


EVENT_STREAM_QUEUE_ABORT = """\
{"event": "line", "data": "VGPU(0x4c1f2210) Queue(0x7a11c0e00000) is idle\\n", "pipe": "stdout"}
{"event": "line", "data": ":0:rocdevice.cpp            :3586: 51022310418 us:  Callback: Queue 0x7a0f2e800000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016\\n", "pipe": "stderr"}
{"event": "line", "data": "/bench/train.py:881: UserWarning: HIP warning: unspecified launch failure (Triggered internally at /src/aten/src/ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h:83.)\\n", "pipe": "stderr"}
"""


def test_a_queue_abort_inside_a_runners_event_records_is_the_device_fault() -> None:
    assert_reads(
        diagnose_text("runs/bench.data", EVENT_STREAM_QUEUE_ABORT),
        "device_fault",
        first_error="HSA_STATUS_ERROR_EXCEPTION",
        rule="dev.rocm_queue_hardware_exception",
    )
