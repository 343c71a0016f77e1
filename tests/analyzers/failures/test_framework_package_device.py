"""A deep-learning framework installed for one kind of device, asked by the job's settings for
another: the package names the build it is and the device it was asked for, before any model is
built. Fixtures are written here in the frameworks' formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# docs/labelling.md#a-framework-package-built-for-another-device


def test_a_cpu_package_asked_for_npus_is_the_jobs_setting() -> None:
    text = (
        "[INFO] launching trainer with config finetune_npu.yaml\n"
        "ValueError: For 'set_context', package type mindspore-cpu support 'device_target' type "
        "cpu, but got Ascend.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis, "config", first_error="package type mindspore-cpu", beside=("driver_env",)
    )


def test_an_ascend_package_asked_for_a_gpu_reads_the_same() -> None:
    text = (
        "ValueError: For 'set_context', package type mindspore-ascend support 'device_target' "
        "type ascend or cpu, but got GPU.\n"
    )
    assert diagnose_text("train.log", text).category == "config"


def test_a_cpu_paddle_asked_for_an_accelerator_reads_the_same() -> None:
    text = (
        "RuntimeError: Cannot use NPU because you have installed CPU version PaddlePaddle.\n"
        "If you want to use NPU, please try to install the NPU version of PaddlePaddle.\n"
    )
    diagnosis = diagnose_text("infer.log", text)
    assert_reads(diagnosis, "config", first_error="installed CPU version PaddlePaddle")


def test_a_setting_of_the_wrong_type_is_not_a_package_mismatch() -> None:
    # counterexample: the same call refusing a value's type names no package build
    text = "TypeError: For 'set_context', the argument 'device_target' must be str, but got int.\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert "must be str" in diagnosis.first_error.text
    assert all("package" not in action for action in diagnosis.next_actions)


def test_a_logged_device_target_is_no_failure() -> None:
    text = (
        "[INFO] ME(4411:281472,MainProcess):2026-03-02-10:11:12.100.300 [context.py:512] "
        "package type mindspore-ascend, device_target Ascend, mode GRAPH_MODE\n"
        "[INFO] epoch 1 step 10 loss 2.31\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "config"


def test_paddle_refusing_a_device_place_its_build_lacks_is_the_package() -> None:
    # Paddle names the place it was asked for and the build switches it would need
    text = (
        '  File "/opt/py/lib/python3.9/site-packages/paddle/fluid/dygraph/tracer.py", line 43, '
        "in trace_op\n"
        "    self.trace(type, inputs, outputs, attrs,\n"
        "NotImplementedError: (Unimplemented) Place CUDAPlace(1) is not supported. Please check "
        "that your paddle compiles with WITH_GPU, WITH_XPU or WITH_ASCEND_CL\n"
    )
    diagnosis = diagnose_text("stderr.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Place CUDAPlace(1) is not supported",
        beside=("driver_env",),
    )
    assert "cfg.framework_package_other_device" in rules_of(diagnosis)


def test_paddle_asked_for_a_gpu_place_in_a_cpu_only_build_reads_the_same() -> None:
    text = (
        "RuntimeError: (Unimplemented) Cannot use CUDAPlace in CPU only version, Please "
        "recompile or reinstall Paddle with CUDA support.\n"
    )
    diagnosis = diagnose_text("workerlog.0", text)
    assert_reads(diagnosis, "config", first_error="Cannot use CUDAPlace in CPU only version")


def test_an_op_refusing_a_dtype_names_no_build() -> None:
    # counterexample: another Unimplemented sentence of Paddle says nothing of the package
    text = (
        "NotImplementedError: (Unimplemented) Data type complex64 is not supported by the "
        "argsort kernel on this place.\n"
    )
    diagnosis = diagnose_text("stderr.log", text)
    assert "cfg.framework_package_other_device" not in rules_of(diagnosis)


# torch's FSDP2 (`fully_shard`) in releases that knew only CUDA streams, run on another
# accelerator (an Intel XPU here); the trainer's own INFO lines come before it.
FSDP2_ON_ANOTHER_DEVICE = """\
[2025-01-28 08:49:53][I][recipes/full_finetune_distributed:632:__main__] Optimizer is initialized.
[2025-01-28 08:49:55][I][recipes/full_finetune_distributed:685:__main__] Dataset and Sampler are initialized.
[rank0]:   File "/opt/env/lib/python3.10/site-packages/torch/distributed/_composable/fsdp/_fsdp_state.py", line 183, in _init_shared_state
[rank0]:     self._comm_ctx.lazy_init()
[rank0]:   File "/opt/env/lib/python3.10/site-packages/torch/distributed/_composable/fsdp/_fsdp_param_group.py", line 48, in lazy_init
[rank0]:     raise RuntimeError("FSDP requires CUDA for streams")
[rank0]: RuntimeError: FSDP requires CUDA for streams
"""


def test_fsdp2_of_a_release_that_knows_only_cuda_streams_is_the_jobs_setup() -> None:
    """The wrapper's release offers no streams for the job's device: another torch release or
    another wrapper must be chosen (`config`), the machine's software beside it."""
    diagnosis = diagnose_text("log_rank0.log", FSDP2_ON_ANOTHER_DEVICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="FSDP requires CUDA for streams",
        rule="cfg.fsdp_streams_device_unsupported",
        beside=("driver_env",),
    )
    assert diagnosis.confidence >= 0.5


def test_fsdp_refusing_its_mesh_layout_is_not_a_device_it_lacks() -> None:
    """Counterexample: FSDP's check of its meshes names no device."""
    text = (
        "[rank3]: AssertionError: FSDP requires the DP and TP mesh to have the same parent mesh "
        "but got: DP's global mesh: DeviceMesh('cuda', [0, 1, 2, 3])\n"
    )
    diagnosis = diagnose_text("log_rank3.log", text)
    assert "cfg.fsdp_streams_device_unsupported" not in rules_of(diagnosis)
