"""TPU runtimes that do not start, collectives XLA refuses, graphs neuronx-cc does not compile.

docs/labelling.md#runtimes-of-other-accelerators gives the labels: a PJRT or XRT client that
cannot open the host's TPU chips is the machine's (`driver_env`, `config` beside it); a
cross-replica collective whose replica groups do not cover the replicas is a wrong group
set-up (`hccl`, `config` beside it); the Neuron compile wrapper's report of a failed or
cached-failed compile is the graph's compile failing (`operator`, `driver_env` beside it).
Fixtures follow the real formats with numbers, hosts and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PJRT_DEVICE_NODE_HELD = """\
WARNING:root:libtpu.so and TPU device found. Setting PJRT_DEVICE=TPU.
Traceback (most recent call last):
  File "/home/dev/train_mnist.py", line 41, in <module>
    device = xm.xla_device()
  File "/usr/local/lib/python3.10/site-packages/torch_xla/core/xla_model.py", line 212, in xla_device
    return runtime.xla_device(n, devkind)
  File "/usr/local/lib/python3.10/site-packages/torch_xla/core/xla_model.py", line 79, in get_xla_supported_devices
    devices = torch_xla._XLAC._xla_get_devices()
RuntimeError: Bad StatusOr access: UNKNOWN: TPU initialization failed: open(/dev/accel0): Operation not permitted
"""

PJRT_NO_CHIP_ABORT = """\
I0000 00:00:1738212011.408112    3310 common_lib.cc:145] Failed to fetch URL on try 3 out of 6: Failed to fetch URL (http status: 404) No error
2025-01-30 04:40:12.551208: F    3310 tensorflow/tsl/platform/statusor.cc:33] Attempting to fetch value instead of handling error UNKNOWN: TPU initialization failed: No 7e91c02ab device found.
*** SIGABRT received by PID 3310 (TID 3310) on cpu 3 from PID 3310; stack trace: ***
PC: @     0x7f3a11c8b8eb  (unknown)  raise
    @     0x7f39e0a6cc00        400  tsl::internal_statusor::Helper::Crash()
    @     0x7f39e0d70a27        768  xla::PjRtComputationClient::PjRtComputationClient()
"""

PJRT_SLICE_ADDRESSES = """\
--> 214 run_multiprocess(spawn_fn, start_method=start_method)

RuntimeError: Bad StatusOr access: UNKNOWN: TPU initialization failed: Invalid --5d02e17_slice_builder_worker_addresses specified. Expected 2 worker addresses, got 1.
"""

XRT_DEVICE_NODE = """\
2021-11-02 08:14:51.310221: E tensorflow/core/framework/op_kernel.cc:1693] OpKernel ('op: "TPURoundRobin" device_type: "CPU"') for unknown op: TPURoundRobin
2021-11-02 08:14:51.362004: E tensorflow/core/distributed_runtime/rpc/grpc_server_lib.cc:533] Invalid argument: Invalid fd: -1; Couldn't open device: /dev/accel3 (Operation not permitted); Unable to create Node RegisterInterface for node 3, config: device_path: "/dev/accel3" mode: KERNEL
"""

REPLICA_GROUPS = """\
  File "/home/dev/infer_tpu.py", line 133, in gather_frames
    frames = torch.cat(frames, dim=0).cpu()
RuntimeError: Bad StatusOr access: INTERNAL: during context [pre-optimization]: RET_CHECK failure (xla/service/hlo_verifier.cc:414) replica_count == 1 || n == replica_count In kCrossReplica mode, replica groups should contain 4 replicas, but found 2: %all-gather.311 = bf16[2048,16,64]{2,1,0} all-gather(bf16[1024,16,64]{2,1,0} %add.310), replica_groups={{0,1}}, dimensions={0}
"""

NEURON_COMPILE_FAILED = """\
2025-02-14 09:30:02.000118:  51220  INFO ||NEURON_CACHE||: Compile cache path: /var/tmp/neuron-compile-cache
2025-02-14 09:30:02.000119:  51220  INFO ||NEURON_CC_WRAPPER||: Call compiler with cmd: neuronx-cc compile --target=trn1 --framework=XLA /tmp/dev/neuroncc_compile_workdir/77/model.MODULE_4410+e3.hlo_module.pb --output /tmp/dev/neuroncc_compile_workdir/77/model.MODULE_4410+e3.neff --verbose=35
2025-02-14 09:41:57.000702:  51220  ERROR ||NEURON_CC_WRAPPER||: Failed compilation with ['neuronx-cc', 'compile', '--target=trn1', '--framework=XLA', '/tmp/dev/neuroncc_compile_workdir/77/model.MODULE_4410+e3.hlo_module.pb', '--output', '/tmp/dev/neuroncc_compile_workdir/77/model.MODULE_4410+e3.neff', '--verbose=35']: 2025-02-14T09:41:57Z [TEN404] (aten__gather_gather.52) Internal tensorizer error: DataLocalityOpt: - Please open a support ticket at https://github.com/aws-neuron/aws-neuron-sdk/issues/new.
2025-02-14 09:41:57.803311: F ./torch_xla/csrc/runtime/debug_macros.h:20] Non-OK-status: status.status() status: INTERNAL: RunNeuronCCImpl: error condition error != 0: <class 'subprocess.CalledProcessError'>: Command '' returned non-zero exit status 70.
"""

NEURON_CACHED_FAILURE = """\
2025-02-14 10:02:11.000330:  51877  ERROR ||NEURON_CC_WRAPPER||: Got a cached failed neff at /var/tmp/neuron-compile-cache/neuronxcc-2.16.372.0/MODULE_4410+e3/model.neff. Will skip compilation, please set --retry_failed_compilation for recompilation: 
 Failed compilation with ['neuronx-cc', 'compile', '--target=trn1', '--framework=XLA', '/tmp/dev/neuroncc_compile_workdir/9c/model.MODULE_4410+e3.hlo_module.pb']: 2025-02-14T09:41:57Z [NLA001]  Unhandled exception with message: tensor size must be more than 0, input0_set
.
2025-02-14 10:02:11.914220: F ./torch_xla/csrc/runtime/debug_macros.h:20] Non-OK-status: status.status() status: INTERNAL: RunNeuronCCImpl: error condition error != 0
"""

NEURON_COMPILE_PASSED = """\
2025-02-14 09:30:02.000119:  51220  INFO ||NEURON_CC_WRAPPER||: Call compiler with cmd: neuronx-cc compile --target=trn1 --framework=XLA /tmp/dev/model.hlo_module.pb --output /tmp/dev/model.neff
2025-02-14 09:30:40.000411:  51220  INFO ||NEURON_CC_WRAPPER||: Using a cached neff at /var/tmp/neuron-compile-cache/neuronxcc-2.16.372.0/MODULE_12+e3/model.neff. Exiting with a successfully compiled graph.
Compiler status PASS
"""


def test_a_tpu_chip_the_runtime_may_not_open_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/train.log", PJRT_DEVICE_NODE_HELD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="TPU initialization failed: open(/dev/accel0)",
        beside=("config",),
    )


def test_a_vm_without_a_tpu_chip_is_the_machine_not_the_abort() -> None:
    diagnosis = diagnose_text("logs/train.log", PJRT_NO_CHIP_ABORT)
    assert_reads(diagnosis, "driver_env", first_error="No 7e91c02ab device found")


def test_slice_worker_addresses_that_do_not_fit_are_the_set_up() -> None:
    diagnosis = diagnose_text("logs/notebook.log", PJRT_SLICE_ADDRESSES)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Expected 2 worker addresses, got 1",
        beside=("config",),
    )


def test_the_xrt_start_that_cannot_open_a_device_node_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/xrt.log", XRT_DEVICE_NODE)
    assert_reads(diagnosis, "driver_env", first_error="Couldn't open device: /dev/accel3")


def test_replica_groups_that_do_not_cover_the_replicas_are_the_group_set_up() -> None:
    diagnosis = diagnose_text("logs/infer.log", REPLICA_GROUPS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="replica groups should contain 4 replicas, but found 2",
        beside=("config",),
    )


def test_a_graph_neuronx_cc_fails_on_is_the_compile_before_the_abort() -> None:
    diagnosis = diagnose_text("logs/train_trn1.log", NEURON_COMPILE_FAILED)
    assert_reads(
        diagnosis, "operator", first_error="Failed compilation with", beside=("driver_env",)
    )


def test_a_cached_failed_compile_is_the_same_failure() -> None:
    diagnosis = diagnose_text("logs/train_trn1.log", NEURON_CACHED_FAILURE)
    assert_reads(diagnosis, "operator", first_error="Got a cached failed neff")


def test_a_compile_the_wrapper_reports_as_passed_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train_trn1.log", NEURON_COMPILE_PASSED)
    assert diagnosis.first_error is None or "NEURON_CC_WRAPPER" not in diagnosis.first_error.text
