"""A deep-learning framework installed for one kind of device, asked by the job's settings for
another: the package names the build it is and the device it was asked for, before any model is
built. Fixtures are written here in the frameworks' formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

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
