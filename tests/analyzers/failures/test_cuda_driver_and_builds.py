"""The CUDA driver under a job, and CUDA builds without kernels for the card.

docs/labelling.md#config-driver_env-or-weight_load: a driver that is missing, too old for the
CUDA runtime torch was built with, or that will not give the process a device is the machine
(`driver_env`). docs/labelling.md#operator-installation-or-platform-limit: a wheel built
without kernels for this GPU's architecture is the job's package set (`config`). Values of our
own in torch's real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text


def _rules(diagnosis) -> set[str]:
    return {e.rule for e in diagnosis.evidence if e.rule}


def test_a_driver_too_old_for_the_runtime_is_the_machine() -> None:
    text = (
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/srv/lm/train.py", line 19, in <module>\n'
        "[rank1]:     torch.cuda.set_device(local_rank)\n"
        "[rank1]: RuntimeError: The NVIDIA driver on your system is too old (found version 11020). "
        "Please update your GPU driver by downloading and installing a new version.\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "driver on your system is too old" in diagnosis.first_error.text


def test_a_device_held_elsewhere_is_the_machine() -> None:
    text = "[rank2]: RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "driver_env"
    assert "env.cuda_driver_unusable" in _rules(diagnosis)


def test_a_device_that_failed_under_the_job_is_not_the_driver_setup() -> None:
    text = "[rank2]: RuntimeError: CUDA error: unknown error\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "device_fault"
    assert "env.cuda_driver_unusable" not in _rules(diagnosis)


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
    assert "cfg.cuda_no_kernel_image" not in _rules(diagnosis)


def test_nvml_that_cannot_reach_the_gpu_is_the_machine_not_the_collective() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: NCCL names the NVML call that failed
    # under torch's generic exception; the call is the first error.
    text = (
        "[rank3]: torch.distributed.DistBackendError: NCCL error\n"
        "[rank3]: nvmlDeviceGetHandleByIndex(2) failed: Unknown Error\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.nvml_unusable" in _rules(diagnosis)
    assert diagnosis.first_error is not None
    assert "nvmlDeviceGetHandleByIndex(2) failed" in diagnosis.first_error.text
    assert "hccl" in {alt.category for alt in diagnosis.alternatives}


def test_an_nccl_line_that_only_names_the_nvml_device_is_no_failure() -> None:
    text = (
        "node-4:9120:9120 [1] NCCL INFO comm 0x55d1c0e2 rank 1 nranks 4 cudaDev 1 nvmlDev 1 "
        "busId 41000 commId 0x1f3a - Init COMPLETE\n"
        "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert "env.nvml_unusable" not in _rules(diagnosis)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
