"""Devices XLA does not find, PJRT clients torch_xla does not know, Neuron communicators not built.

docs/labelling.md#runtimes-of-other-accelerators and
docs/labelling.md#collective-libraries-of-other-accelerators give the labels: an XRT op placed
on an accelerator the server did not find is the machine (`driver_env`, `config` beside it); a
`PJRT_DEVICE` value the installed torch_xla does not know is the job's setting (`config`,
`driver_env` beside it), even though it is printed after its stack trace with no error word;
XRT's summary that neuronx-cc failed is the graph's compile (`operator`); the Neuron runtime's
failed cross-instance communicator is the collective set-up (`hccl`). XLA's GPU client whose
`cuInit` says CUDA is not initialised in a forked process is read as torch's `initialization
error` is (docs/labelling.md#cuda-that-does-not-start-in-a-worker), and a compiler whose Python
side finds a NumPy of another C-API version is the package set (`config`).
Fixtures follow the real formats with numbers, hosts and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

XRT_NO_GPU = """\
2023-05-02 09:14:19.871002: I tensorflow/compiler/xla/xla_client/xrt_local_service.cc:54] Peer localservice 1 {localhost:40934}
2023-05-02 09:14:20.004118: F tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:479] Non-OK-status: session->session()->Run(session_work->feed_inputs, session_work->outputs_handles, &outputs) status: INVALID_ARGUMENT: Cannot assign a device for operation XRTAllocateFromTensor: {{node XRTAllocateFromTensor}} was explicitly assigned to /job:localservice/replica:0/task:0/device:XLA_GPU:0 but available devices are [ /job:localservice/replica:0/task:0/device:CPU:0, /job:localservice/replica:0/task:0/device:XLA_CPU:0 ]. Make sure the device specification refers to a valid device.
         [[XRTAllocateFromTensor]]
*** Begin stack trace ***
        tsl::CurrentStackTrace()
        clone
*** End stack trace ***
Aborted (core dumped)
"""

NO_KERNEL_FOR_GPU = """\
InvalidArgumentError: Cannot assign a device for operation Unique_2: Could not satisfy explicit device specification '/device:GPU:0' because no supported kernel for GPU devices is available.
"""

PJRT_UNKNOWN_AFTER_STACK = """\
2025-06-11 08:02:17.311 UTC
torch_xla::runtime::InitializePjRt(std::string const&)
2025-06-11 08:02:17.311 UTC
torch_xla::runtime::PjRtComputationClient::PjRtComputationClient()
2025-06-11 08:02:17.311 UTC
torch_xla::bridge::GetBackendDevices()
2025-06-11 08:02:17.311 UTC
*** End stack trace ***
2025-06-11 08:02:17.311 UTC
Unknown PJRT_DEVICE 'ROCM'
"""

XRT_NEURON_COMPILE = """\
2024-03-18 07:02:44.118190: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] 	 [[{{node XRTExecute}}]]
2024-03-18 07:02:44.118195: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] 0 successful operations.
2024-03-18 07:02:44.118199: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] Recent warning and error logs:
2024-03-18 07:02:44.118201: E tensorflow/compiler/xla/xla_client/xla_util.cc:90]   OP_REQUIRES failed at tpu_execute_op.cc:266 : INTERNAL: neuronx-cc compilation failed.
Traceback (most recent call last):
  File "train_gpt.py", line 388, in <module>
2024-03-18 07:02:44.119003: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] StackTrace:
2024-03-18 07:02:44.119010: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] *** Begin stack trace ***
2024-03-18 07:02:44.119016: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] 	tsl::CurrentStackTrace()
"""

NEURON_GLOBAL_COMM = """\
(RayTrainWorker pid=4411, ip=10.0.3.17) 2026-02-03 14:20:09.000511:  4411  INFO ||NEURON_CACHE||: Compile cache path: /var/tmp/neuron-compile-cache
(RayTrainWorker pid=4411, ip=10.0.3.17) RuntimeError: Bad StatusOr access: INTERNAL: Nrt::BuildGlobalComm failed on NeuronCores 0-31(32):  nrt_status=1, message="Non specific failure".
"""

XLA_GPU_FORKED_CHILD = """\
2025-04-02 10:11:12.480001: I torch_xla/csrc/runtime/pjrt_computation_client.cc:167] Initializing PjRt GPU client...
2025-04-02 10:11:12.501337: E external/xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NOT_INITIALIZED: initialization error
2025-04-02 10:11:12.501380: I external/xla/xla/stream_executor/cuda/cuda_diagnostics.cc:137] retrieving CUDA diagnostic information for host: node4
Process Process-7:
Traceback (most recent call last):
  File "/usr/lib/python3.10/multiprocessing/process.py", line 314, in _bootstrap
    self.run()
"""

COMPILER_NUMPY_ABI = """\
RuntimeError: Failed compilation with ['neuronx-cc', 'compile', '--target=trn1', '--framework=XLA', '/tmp/ci/neuroncc_compile_workdir/51/model.MODULE_88+a1.hlo.pb', '--output', '/tmp/ci/neuroncc_compile_workdir/51/model.MODULE_88+a1.neff']: RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xd
"""


def test_an_accelerator_the_xrt_server_did_not_find_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/xla_gpu.log", XRT_NO_GPU)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert (
        "Cannot assign a device for operation XRTAllocateFromTensor" in diagnosis.first_error.text
    )
    assert "config" in alternative_labels(diagnosis)


def test_a_device_without_a_kernel_for_the_op_is_not_a_missing_device() -> None:
    diagnosis = diagnose_text("logs/tf.log", NO_KERNEL_FOR_GPU)
    assert diagnosis.category != "driver_env", diagnosis.root_cause


def test_an_unknown_pjrt_device_after_its_stack_trace_is_the_setting() -> None:
    diagnosis = diagnose_text("logs/job.log", PJRT_UNKNOWN_AFTER_STACK)
    assert_reads(
        diagnosis, "config", first_error="Unknown PJRT_DEVICE 'ROCM'", beside=("driver_env",)
    )


def test_xrts_summary_of_a_failed_neuron_compile_is_the_compile() -> None:
    diagnosis = diagnose_text("logs/train_trn1.log", XRT_NEURON_COMPILE)
    assert_reads(diagnosis, "operator", first_error="neuronx-cc compilation failed")


def test_a_neuron_communicator_not_built_across_instances_is_the_collective_set_up() -> None:
    diagnosis = diagnose_text("logs/ray_worker.log", NEURON_GLOBAL_COMM)
    assert_reads(diagnosis, "hccl", first_error="Nrt::BuildGlobalComm failed", beside=("config",))


def test_xlas_cuinit_not_initialised_in_a_forked_child_is_the_worker_setting() -> None:
    diagnosis = diagnose_text("logs/test_cuda.log", XLA_GPU_FORKED_CHILD)
    assert_reads(
        diagnosis,
        "config",
        first_error="failed call to cuInit: CUDA_ERROR_NOT_INITIALIZED",
        beside=("driver_env",),
    )


def test_a_compiler_that_finds_numpy_of_another_c_api_is_the_package_set() -> None:
    diagnosis = diagnose_text("logs/ci.log", COMPILER_NUMPY_ABI)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "NumPy" in diagnosis.root_cause
    assert diagnosis.confidence >= 0.5
