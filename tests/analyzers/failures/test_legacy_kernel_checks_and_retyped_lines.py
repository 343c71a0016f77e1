"""Old ATen kernel launch checks, and error lines as people retype them in tickets and FAQs.

docs/labelling.md#a-legacy-aten-kernel-launch-check: torch 1.x CUDA kernels checked their own
launch and named themselves (`<kernel>_out_cuda_frame failed with error code N`); one op's
kernel failed, `operator`. A platform's FAQ or a support ticket often quotes a line retyped:
the loader worker's sentence with other capitals, the loader's missing-library reason without
its colon. The values below are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of


def test_a_legacy_kernel_launch_check_is_the_operator() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "RuntimeError: upsample_nearest2d_out_cuda_frame failed with error code 0\n",
    )
    assert diagnosis.category == "operator"
    assert "op.legacy_aten_kernel_check" in rules_of(diagnosis)


def test_a_container_start_code_is_not_a_kernel_check() -> None:
    diagnosis = diagnose_text(
        "slurm.log",
        "slurmstepd: error: pyxis: container start failed with error code: 1\n",
    )
    assert "op.legacy_aten_kernel_check" not in rules_of(diagnosis)


def test_a_killed_loader_worker_in_other_capitals_is_still_read() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "Runtimeerror: Dataloader worker (pid 5120) is killed by signal: Killed\n",
    )
    assert diagnosis.category == "device_fault"
    assert "dev.dataloader_worker_killed" in rules_of(diagnosis)


def test_a_missing_library_without_its_colon_is_the_machine() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "libcublas.so.10 cannot open shared object file no such file or directory\n",
    )
    assert diagnosis.category == "driver_env"
    assert "env.missing_shared_library" in rules_of(diagnosis)


def test_a_library_name_in_prose_without_the_loader_reason_is_not_missing() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "ERROR: libcublas.so.10 cannot open the cache file, retrying\n",
    )
    assert "env.missing_shared_library" not in rules_of(diagnosis)
