"""What JAX, XLA's clients and TensorFlow's XLA compiler say when a multi-device job stops.

docs/labelling.md#runtimes-of-other-accelerators and docs/labelling.md#a-ranks-device-placement
give the labels: the TPU runtime's own fatal error for a chip is the device (`device_fault`,
`hccl` beside it since a multi-slice job's links report there too); XLA's client asking the
CUDA driver for a GPU the process does not see is the placement (`config`, `driver_env`
beside it); a replica's execution that ran out of device memory is `oom`; an op that XLA's JIT
cannot compile, StableHLO bytecode the runtime cannot read and a jitted call whose arguments
sit on different device sets are the set-up (`config`, with `operator`, `driver_env` and
`other` beside them in turn). Fixtures follow the real formats with numbers, hosts and paths
of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TPU_FATAL = """\
(train_worker pid=5120, ip=10.8.2.14) E0412 03:11:52.400101    5301 synchronous_driver.cc:820] [/dev/accel1 tpu2207:pe0:1] !!!! FATAL ERROR !!!! for [/dev/accel1 tpu2207:pe0:1] , fatal_error: true, running_timer: 0x1a2b3c
(train_worker pid=5120, ip=10.8.2.14) E0412 03:11:52.400140    5377 error_handler.cc:100] Received Error Interrupt! fatal: true, running_timer: 0x1a2b3d
(train_worker pid=5120, ip=10.8.2.14) E0412 03:11:52.400512    5390 fake_program_continuator.cc:556] 2x0x1_BC0: *** [Physical location: tpu2207:pe0:2] A Unknown error has occurred, all pending programs will fail, and results may be corrupted.
"""

TPU_INTERRUPT_NOT_FATAL = """\
E0412 03:11:52.400140    5377 error_handler.cc:100] Received Error Interrupt! fatal: false, running_timer: 0x1a2b3d
"""

XLA_NO_SUCH_GPU = """\
2025-03-10 11:02:41.118201: W external/xla/xla/service/platform_util.cc:206] unable to create StreamExecutor for CUDA:2: failed initializing StreamExecutor for CUDA device ordinal 2: INTERNAL: Failed call to cuDeviceGet: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/jax/_src/xla_bridge.py", line 905, in backends
    backend = _init_backend(platform)
"""

XLA_REPLICA_OUT_OF_MEMORY = """\
[0] 2024-02-07 17:45:10.331002: E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:2411] Execution of replica 1 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 8589934592 bytes.
"""

XLA_JIT_COLLECTIVE = """\
while/NcclAllReduce_12: unsupported op: No registered 'NcclAllReduce' OpKernel for XLA_GPU_JIT devices compatible with node {{node while/NcclAllReduce_12}}
        Stacktrace:
                Node: __inference_train_step_4410, function:
"""

TF_NO_GPU_KERNEL = """\
No registered 'RaggedGather' OpKernel for 'GPU' devices compatible with node {{node RaggedGather}}
"""

NEWER_STABLEHLO = """\
jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: -:0:0: error: unknown vhlo attribute code: 41
-:0:0: note: in bytecode version 7 produced by: StableHLO_v1.9.0
"""

JIT_DEVICE_SETS = """\
Traceback (most recent call last):
  File "/srv/train.py", line 88, in <module>
    state = step(state, batch)
ValueError: Received incompatible devices for jitted computation. Got argument params['w'] of step with shape float32[256,256] and device ids [0, 1, 2, 3] on platform GPU and argument batch of step with shape int32[64,128] and device ids [0] on platform GPU
"""


def test_the_tpu_runtimes_fatal_chip_error_is_the_device() -> None:
    diagnosis = diagnose_text("logs/ray_worker.log", TPU_FATAL)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="!!!! FATAL ERROR !!!! for [/dev/accel1",
        rule="dev.tpu_runtime_fatal_error",
        beside=("hccl",),
    )


def test_an_interrupt_the_runtime_calls_not_fatal_is_not_that_error() -> None:
    diagnosis = diagnose_text("logs/worker.log", TPU_INTERRUPT_NOT_FATAL)
    assert "dev.tpu_runtime_fatal_error" not in rules_of(diagnosis)


def test_xlas_client_asking_for_a_gpu_the_process_does_not_see_is_the_placement() -> None:
    diagnosis = diagnose_text("logs/slurm-4410.out", XLA_NO_SUCH_GPU)
    assert_reads(
        diagnosis,
        "config",
        first_error="CUDA_ERROR_INVALID_DEVICE: invalid device ordinal",
        rule="cfg.rank_device_placement",
        beside=("driver_env",),
    )


def test_a_replica_execution_that_ran_out_of_device_memory_is_oom() -> None:
    diagnosis = diagnose_text("logs/launcher.log", XLA_REPLICA_OUT_OF_MEMORY)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Execution of replica 1 failed: RESOURCE_EXHAUSTED",
        rule="oom.xla_resource_exhausted",
    )


def test_an_op_xlas_jit_cannot_compile_is_the_set_up() -> None:
    diagnosis = diagnose_text("logs/train.log", XLA_JIT_COLLECTIVE)
    assert_reads(
        diagnosis,
        "config",
        first_error="No registered 'NcclAllReduce' OpKernel for XLA_GPU_JIT devices",
        rule="cfg.xla_jit_unsupported_op",
        beside=("operator",),
    )


def test_a_kernel_missing_for_a_plain_device_is_not_the_jit_refusal() -> None:
    diagnosis = diagnose_text("logs/train.log", TF_NO_GPU_KERNEL)
    assert "cfg.xla_jit_unsupported_op" not in rules_of(diagnosis)


def test_stablehlo_bytecode_newer_than_the_runtime_is_the_release_pair() -> None:
    diagnosis = diagnose_text("logs/notebook.txt", NEWER_STABLEHLO)
    assert_reads(
        diagnosis,
        "config",
        first_error="unknown vhlo attribute code: 41",
        rule="cfg.stablehlo_bytecode_unreadable",
        beside=("driver_env",),
    )


def test_the_producer_note_alone_is_not_the_refusal() -> None:
    diagnosis = diagnose_text(
        "logs/notebook.txt", "-:0:0: note: in bytecode version 7 produced by: StableHLO_v1.9.0\n"
    )
    assert "cfg.stablehlo_bytecode_unreadable" not in rules_of(diagnosis)


def test_a_jitted_call_over_different_device_sets_is_the_placement() -> None:
    diagnosis = diagnose_text("logs/stdout.log", JIT_DEVICE_SETS)
    assert_reads(
        diagnosis,
        "config",
        first_error="Received incompatible devices for jitted computation",
        rule="cfg.jit_incompatible_devices",
        beside=("other",),
    )
