"""The CUDA driver under a job, and CUDA builds without kernels for the card.

docs/labelling.md#config-driver_env-or-weight_load: a driver that is missing, too old for the
CUDA runtime torch was built with, or that will not give the process a device is the machine
(`driver_env`). docs/labelling.md#operator-installation-or-platform-limit: a wheel built
without kernels for this GPU's architecture is the job's package set (`config`). Values of our
own in torch's real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of


def test_a_driver_too_old_for_the_runtime_is_the_machine() -> None:
    text = (
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/srv/lm/train.py", line 19, in <module>\n'
        "[rank1]:     torch.cuda.set_device(local_rank)\n"
        "[rank1]: RuntimeError: The NVIDIA driver on your system is too old (found version 11020). "
        "Please update your GPU driver by downloading and installing a new version.\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert_reads(diagnosis, "driver_env", first_error="driver on your system is too old")


def test_a_device_held_elsewhere_is_the_machine() -> None:
    text = "[rank2]: RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "driver_env"
    assert "env.cuda_driver_unusable" in rules_of(diagnosis)


def test_a_device_that_failed_under_the_job_is_not_the_driver_setup() -> None:
    text = "[rank2]: RuntimeError: CUDA error: unknown error\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "device_fault"
    assert "env.cuda_driver_unusable" not in rules_of(diagnosis)


def test_a_build_without_kernels_for_the_card_is_the_package_set() -> None:
    # docs/labelling.md#operator-installation-or-platform-limit
    text = (
        '[rank0]:   File "/opt/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", '
        "line 91, in _flash_attn_forward\n"
        "[rank0]: RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "config"
    assert {"driver_env", "operator"} & {alt.category for alt in diagnosis.alternatives}


def test_a_kernel_the_inputs_broke_is_not_a_missing_build() -> None:
    # docs/labelling.md#operator-installation-or-platform-limit
    text = "[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "cfg.cuda_no_kernel_image" not in rules_of(diagnosis)


def test_nvml_that_cannot_reach_the_gpu_is_the_machine_not_the_collective() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: NCCL names the NVML call that failed
    # under torch's generic exception; the call is the first error.
    text = (
        "[rank3]: torch.distributed.DistBackendError: NCCL error\n"
        "[rank3]: nvmlDeviceGetHandleByIndex(2) failed: Unknown Error\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="nvmlDeviceGetHandleByIndex(2) failed",
        rule="env.nvml_unusable",
        beside=("hccl",),
    )


def test_nccl_that_cannot_load_nvml_is_the_machine_not_the_collective() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: one step before any NVML call, NCCL
    # cannot load the library; torch quotes NCCL's line under `Last error:` and that line, not
    # the `unhandled system error` headline, is the first error.
    text = (
        "[rank2]:     work = group.barrier(opts=opts)\n"
        "[rank2]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/"
        "c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), "
        "NCCL version 2.21.5\n"
        "[rank2]: ncclSystemError: System call (e.g. socket, malloc) or external library call "
        "failed or device error.\n"
        "[rank2]: Last error:\n"
        "[rank2]: Failed to open libnvidia-ml.so.1\n"
    )
    diagnosis = diagnose_text("rank2.log", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to open libnvidia-ml.so.1",
        rule="env.nvml_unusable",
        beside=("hccl",),
    )


def test_nccls_own_warning_that_nvml_did_not_load_is_read_the_same_way() -> None:
    text = (
        "gpu-17:30412:30488 [0] misc/nvmlwrap.cc:74 NCCL WARN Failed to open libnvidia-ml.so.1\n"
        "gpu-17:30412:30488 [0] NCCL INFO misc/nvmlwrap.cc:200 -> 2\n"
        "gpu-17:30412:30488 [0] NCCL INFO init.cc:355 -> 2\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert_reads(diagnosis, "driver_env", first_error="NCCL WARN Failed to open libnvidia-ml")


def test_nvml_that_loaded_is_no_failure() -> None:
    text = (
        "node-2:5120:5177 [0] NCCL INFO Loaded NVML from libnvidia-ml.so.1\n"
        "[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert "env.nvml_unusable" not in rules_of(diagnosis)
    assert diagnosis.category == "device_fault", diagnosis.root_cause


def test_an_nccl_line_that_only_names_the_nvml_device_is_no_failure() -> None:
    text = (
        "node-4:9120:9120 [1] NCCL INFO comm 0x55d1c0e2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 "
        "busId 41000 commId 0x1f3a - Init COMPLETE\n"
        "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert "env.nvml_unusable" not in rules_of(diagnosis)
    assert diagnosis.category == "device_fault", diagnosis.root_cause


KERNEL_IMAGE_REFUSED = """\
  File "/opt/venv/lib/python3.10/site-packages/triton/compiler/compiler.py", line 291, in _init_handles
    self.module, self.function, self.n_regs, self.n_spills = driver.utils.load_binary(
RuntimeError: Triton Error [CUDA]: device kernel image is invalid
"""


def test_a_kernel_image_the_driver_cannot_load_is_the_machines_driver() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: the driver runs behind the compiler
    # that built the image; the release chosen and the kernel are the alternatives.
    diagnosis = diagnose_text("worker_3.log", KERNEL_IMAGE_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="device kernel image is invalid",
        rule="env.cuda_kernel_image_invalid",
    )
    assert {"config", "operator"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_wheel_without_kernels_for_the_card_is_not_an_unloadable_image() -> None:
    text = "[rank0]: RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "env.cuda_kernel_image_invalid" not in rules_of(diagnosis)
    assert diagnosis.category == "config"


OP_BUILDER_CUDA_MISMATCH = """\
Exception: >- DeepSpeed Op Builder: Installed CUDA version 10.2 does not match the version torch was compiled with 12.1, unable to compile cuda/cpp extensions without a matching cuda version.
Traceback (most recent call last):
  File "/srv/sft/train.py", line 212, in <module>
    main()
  File "/srv/sft/train.py", line 188, in main
    trainer.train()
"""


def test_an_op_builder_refusing_a_toolkit_of_another_release_is_the_package_set() -> None:
    # docs/labelling.md#an-extension-built-against-headers-that-do-not-fit
    diagnosis = diagnose_text("train.log", OP_BUILDER_CUDA_MISMATCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not match the version torch was compiled with",
        rule="cfg.extension_cuda_toolkit_mismatch",
        beside=("driver_env",),
    )


OP_BUILDER_ACCEPTS_A_MINOR_MISMATCH = """\
(LLMRayActor pid=2210) INFO 05-02 11:20:14 llm_engine.py:431] init engine (profile, create kv cache, warmup model) took 18.40 seconds
(PolicyRayActor pid=2231) Installed CUDA version 12.8 does not match the version torch was compiled with 12.6 but since the APIs are compatible, accepting this combination
"""


def test_an_op_builder_that_accepts_a_minor_mismatch_reports_no_failure() -> None:
    # docs/labelling.md#an-extension-built-against-headers-that-do-not-fit: the op builder
    # goes on when only the minor release differs; its notice is no refusal and no first error.
    diagnosis = diagnose_text("ray_job.log", OP_BUILDER_ACCEPTS_A_MINOR_MISMATCH)
    assert "cfg.extension_cuda_toolkit_mismatch" not in rules_of(diagnosis)
    assert diagnosis.first_error is None
    assert diagnosis.category == "hang"


ROOT_ONLY_TOOL_ON_A_NODE = """\
10.8.0.21: Using /home/ops/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...
10.8.0.21: Using /home/ops/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...
10.8.0.21: die: error: must run as root[rank3]: Traceback (most recent call last):
10.8.0.21: [rank3]:   File "/srv/rlhf/train.py", line 40, in <module>
10.8.0.21: [rank3]:     main()
10.8.0.21: [rank3]:   File "/srv/rlhf/train.py", line 31, in main
10.8.0.21: [rank3]:     optimizer = FusedAdam(
"""


def test_a_tool_that_needs_root_is_the_machines_setup_and_the_first_error() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: a program refusing to run without
    # root names the host's permissions; its Unix-form line is the first error, not a hang.
    diagnosis = diagnose_text("node2.log", ROOT_ONLY_TOOL_ON_A_NODE)
    assert_reads(diagnosis, "driver_env", first_error="must run as root")


# torch only warns, when it first counts the GPUs, that the driver cannot serve its CUDA
# runtime; the process goes on with no device and the next thing that needs one says it found
# none. docs/labelling.md#config-driver_env-or-weight_load
_DRIVER_WARNING = (
    "/opt/conda/lib/python3.9/site-packages/torch/cuda/__init__.py:107: UserWarning: CUDA "
    "initialization: The NVIDIA driver on your system is too old (found version 11020). Please "
    "update your GPU driver by downloading and installing a new version. (Triggered internally "
    "at ../c10/cuda/CUDAFunctions.cpp:109.)\n"
    "  return torch._C._cuda_getDeviceCount() > 0\n"
)


def test_a_driver_warning_leads_the_verdict_that_no_gpu_was_found() -> None:
    text = _DRIVER_WARNING + (
        "Traceback (most recent call last):\n"
        '  File "/srv/lm/pretrain.py", line 41, in <module>\n'
        '    dist.init_process_group(backend="nccl")\n'
        "RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!\n"
        "[2024-03-02 09:14:07,112] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
        "(exitcode: 1) local_rank: 0 (pid: 40117) of binary: /opt/conda/bin/python\n"
    )
    diagnosis = diagnose_text("node0.log", text)
    assert_reads(diagnosis, "driver_env", first_error="driver on your system is too old")
    # the verdict that stepped aside for it tells the same failure: as sure as an error
    assert diagnosis.confidence >= 0.8


def test_a_driver_warning_on_a_job_that_ran_on_the_cpu_leaves_the_jobs_own_error_first() -> None:
    # counterexample: nothing asked for a GPU, so the warning explains nothing that failed
    text = _DRIVER_WARNING + (
        "Traceback (most recent call last):\n"
        '  File "/srv/lm/probe.py", line 12, in <module>\n'
        "    out = head(features)\n"
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x96 and 128x10)\n"
    )
    diagnosis = diagnose_text("node0.log", text)
    assert_reads(diagnosis, "shape_mismatch", first_error="mat1 and mat2 shapes")
