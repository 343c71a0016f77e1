"""The Neuron runtime's and compiler's own failure lines, JAX's backend start, NCCL-style bootstraps.

docs/labelling.md#runtimes-of-other-accelerators gives the labels: NeuronCores another process
holds, and a device an earlier process left running, are the machine (`driver_env`); the
runtime's temporary-buffer pages or device memory pool running out is `oom`; an execution the
runtime stopped waiting for is the device's timeout (`aicore_timeout`), but a collective's
status it only stopped waiting for is not; an uncorrectable device-memory error is the device
(`device_fault`); an exception on the GPSIMD engines that run custom operators is a device-side
core exception (`aicore_timeout`); the compiler's backend-IR verification is the graph's
compile (`operator`) and its Internal Compiler Error banner yields to the message under it; a
JAX backend that cannot start is the machine (`driver_env`), a probe logged at INFO is not.
docs/labelling.md#collective-libraries-of-other-accelerators: a bootstrap that finds no
interface to listen on is the collective set-up (`hccl`).
docs/labelling.md#the-operator-compilers-environment-does-not-start: a NumPy function the
release removed is the package set.
Fixtures follow the real formats with numbers, hosts and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

CORES_HELD = """\
2025-Mar-04 09:12:40.0117 5120:5120 ERROR NRT:nrt_allocate_neuron_cores NeuronCore(s) not available - Requested:nc4-nc7 Available:2
2025-03-04 09:12:40.011902: F ./tensorflow/compiler/xla/service/neuron/neuron_runtime.h:1037] Check failed: status == NRT_SUCCESS NEURONPOC : nrt_init failed. Status = 1
"""

ENGINES_RUNNING = """\
2025-Mar-04 10:02:11.0431 8801:8801 ERROR TDRV:tpb_eng_init_hals_v2 CRITICAL HW ERROR: One or more engines are running. Please restart device by reloading driver:
sudo modprobe -r neuron; sudo modprobe neuron;
2025-Mar-04 10:02:11.0431 8801:8801 ERROR TDRV:tdrv_init_one_mla_phase2 nd1 nc0 HAL init failed. error:1
"""

TIMESTAMP_STOP = """\
2025-Mar-04 10:30:05.0112 9120:9120 ERROR  TDRV:tsync_wait_eng_stop                     nd2 nc1 Timestamp program stop timeout (1000 ms)
2025-Mar-04 10:30:05.0112 9120:9120 ERROR  TDRV:tsync_wait_nc_stop                      nd2 nc1 Error while waiting for timestamp program to end on TPB eng 0
2025-Mar-04 10:30:06.0301 9120:9120 ERROR   NRT:nrt_init                                Failed to initialize devices, error:5
"""

TMPBUF_PAGES = """\
ERROR  TDRV:tdrv_one_tmpbuf_reserve                 Number of ONE TMPBUF pages requested exceeded the max number of pages allowed (requested: 40, max allowed: 16).
ERROR  TDRV:copy_and_stage_mr                       Failed to reserve one tmpbuf memory
ERROR  TDRV:kbl_model_add                           copy_and_stage_mr() error
"""

MEMPOOL = """\
kernel: [81234.551] neuron:mc_alloc: device mempool [1:0] total 1073741568 occupied 1073000000 needed 4096 available 512
"""

EXEC_TIMEOUT = """\
2025-Mar-05 01:14:09.0220 4410:4410 ERROR  TDRV:exec_consume_tpb_status_notifications   Missing infer_status notification: (end:2)
2025-Mar-05 01:14:09.0220 4410:4410 ERROR  TDRV:exec_consume_infer_status_notifications (FATAL-RT-UNDEFINED-STATE) inference timeout (300000 ms) on Neuron Device 1 NC 0, waiting for execution completion notification
2025-Mar-05 01:14:09.0231 4410:4410 ERROR  NMGR:dlr_infer                               Inference completed with err: 5
"""

CC_STATUS_WAIT = """\
2025-Mar-05 02:00:31.0402 6610:6702 ERROR  TDRV:exec_consume_infer_status_notifications (NON-FATAL, Ignoring) inference timeout (180000 ms) on Neuron Device 3 NC 1, waiting for cc status notifications.
"""

HBM_UE = """\
Uncorrectable memory error is detected on Neuron device: 3:0 metadata: 0x4. Failing execution.
"""

GPSIMD = """\
2025-Mar-05 03:41:17.0902 70211:70211 ERROR TDRV:pool_stdio_queue_consume_all_entries  Printing stderr from GPSIMD:
GPSIMD EXCEPTION OCCURRED: ILLEGAL INSTRUCTION
Subtype/Type/Cause: 0x102
Exception PC: 0x84000A10
"""

BIR_VERIFY = """\
terminate called after throwing an instance of 'std::runtime_error'
  what():  === BIR verification failed ===
Reason: Expect ap datatype to be of type float32 float16 bfloat16 uint8
Instruction: I-912-0
Opcode: Matmult
"""

COMPILER_ICE = """\
ERROR 51200 [neuronx-cc]: ***************************************************************
ERROR 51200 [neuronx-cc]:  An Internal Compiler Error has occurred
ERROR 51200 [neuronx-cc]: ***************************************************************
ERROR 51200 [neuronx-cc]:
ERROR 51200 [neuronx-cc]: Error message:  module 'numpy' has no attribute 'alen'
ERROR 51200 [neuronx-cc]:
ERROR 51200 [neuronx-cc]: Error class:    AttributeError
ERROR 51200 [neuronx-cc]: Error location: Unknown
ERROR 51200 [neuronx-cc]:   NumPy version 1.24.4
"""

COMPILER_ICE_ASSERT = """\
ERROR 51377 [neuronx-cc]: ***************************************************************
ERROR 51377 [neuronx-cc]:  An Internal Compiler Error has occurred
ERROR 51377 [neuronx-cc]: ***************************************************************
ERROR 51377 [neuronx-cc]:
ERROR 51377 [neuronx-cc]: Error message:  partition dimension 160 exceeds the 128 lanes of the tile
ERROR 51377 [neuronx-cc]:
ERROR 51377 [neuronx-cc]: Error class:    AssertionError
"""

NO_LISTEN_INTERFACE = """\
No interface found in the same subnet as remote address fe80::a1b2:33ff:fe44:c5d6<50111>
No usable listening interface found
"""

JAX_NO_TPU = """\
RuntimeError: Unable to initialize backend 'tpu': UNAVAILABLE: No TPU Platform available.
"""

JAX_PROBE_INFO = """\
INFO:jax._src.xla_bridge:Unable to initialize backend 'rocm': NOT_FOUND: Could not find registered platform with name: "rocm". Available platform names are: CUDA
INFO:jax._src.xla_bridge:Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory
step 0 loss 2.3110
step 100 loss 1.0420
"""


def test_neuron_cores_another_process_holds_are_the_machine() -> None:
    diagnosis = diagnose_text("logs/train.log", CORES_HELD)
    assert_reads(diagnosis, "driver_env", first_error="NeuronCore(s) not available")
    assert diagnosis.confidence >= 0.5


def test_a_device_an_earlier_process_left_running_is_the_machine_not_a_fault() -> None:
    for text, words in (
        (ENGINES_RUNNING, "One or more engines are running"),
        (TIMESTAMP_STOP, "Timestamp program stop timeout"),
    ):
        diagnosis = diagnose_text("logs/train.log", text)
        assert_reads(diagnosis, "driver_env", first_error=words, beside=("device_fault",))
        assert diagnosis.confidence >= 0.5


def test_neuron_temporary_buffer_pages_and_the_device_pool_running_out_are_memory() -> None:
    for text, words in (
        (TMPBUF_PAGES, "Number of ONE TMPBUF pages requested exceeded"),
        (MEMPOOL, "device mempool [1:0]"),
    ):
        diagnosis = diagnose_text("logs/train.log", text)
        assert_reads(diagnosis, "oom", first_error=words)


def test_an_execution_the_neuron_runtime_stopped_waiting_for_is_the_device_timeout() -> None:
    diagnosis = diagnose_text("logs/train.log", EXEC_TIMEOUT)
    assert diagnosis.category == "aicore_timeout", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "infer_status notification" in diagnosis.first_error.text or (
        "inference timeout (300000 ms)" in diagnosis.first_error.text
    )
    assert "hang" in alternative_labels(diagnosis)


def test_a_collective_status_the_runtime_stopped_waiting_for_is_not_the_device_timeout() -> None:
    diagnosis = diagnose_text("logs/train.log", CC_STATUS_WAIT)
    assert diagnosis.category != "aicore_timeout", diagnosis.root_cause


def test_an_uncorrectable_neuron_device_memory_error_is_the_device() -> None:
    diagnosis = diagnose_text("logs/train.log", HBM_UE)
    assert_reads(diagnosis, "device_fault", first_error="Uncorrectable memory error")
    assert diagnosis.confidence >= 0.5


def test_a_gpsimd_exception_is_a_device_side_core_exception() -> None:
    diagnosis = diagnose_text("logs/train.log", GPSIMD)
    assert_reads(diagnosis, "aicore_timeout", first_error="GPSIMD", beside=("device_fault",))


def test_the_compilers_backend_ir_verification_is_the_graphs_compile() -> None:
    diagnosis = diagnose_text("logs/compile.log", BIR_VERIFY)
    assert_reads(diagnosis, "operator", first_error="BIR verification failed", beside=("config",))


def test_the_compilers_internal_error_banner_yields_to_its_message() -> None:
    diagnosis = diagnose_text("logs/compile.log", COMPILER_ICE)
    assert_reads(diagnosis, "config", first_error="module 'numpy' has no attribute 'alen'")


def test_an_internal_compiler_error_with_its_own_message_is_the_compile() -> None:
    diagnosis = diagnose_text("logs/compile.log", COMPILER_ICE_ASSERT)
    assert_reads(diagnosis, "operator", first_error="Error message:  partition dimension 160")


def test_a_bootstrap_with_no_interface_to_listen_on_is_the_collective_set_up() -> None:
    diagnosis = diagnose_text("logs/worker.log", NO_LISTEN_INTERFACE)
    assert_reads(diagnosis, "hccl", first_error="No interface found in the same subnet")


def test_a_jax_backend_that_cannot_start_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/train.log", JAX_NO_TPU)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Unable to initialize backend 'tpu'",
        beside=("config",),
    )


def test_a_jax_backend_probe_logged_at_info_is_no_error() -> None:
    diagnosis = diagnose_text("logs/train.log", JAX_PROBE_INFO)
    assert diagnosis.category != "driver_env", diagnosis.root_cause
