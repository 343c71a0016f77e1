"""Set-up failures of vision training jobs as FAQ pages and issue titles quote them: one line,
often a frame and its exception run together, sometimes without the blank after the colon.
What each says must decide the label even with no log around it. Fixtures are written here in
those shapes with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text


def test_a_frame_quoted_with_its_exception_cites_that_line() -> None:
    # docs/labelling.md#wrappers: a frame and its exception joined on one line carry the error
    text = "File \".../det/data/pipeline.py\", line 88, in load_extra: KeyError:'lane_mask'\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert "KeyError:'lane_mask'" in diagnosis.first_error.text


def test_a_library_too_big_for_the_static_tls_area_is_the_machine_not_memory() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load (the loader's static TLS area)
    text = "ImportError: /opt/env/lib/libgomp.so.1: cannot allocate memory in static TLS block\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "driver_env"
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_host_that_ran_out_of_memory_stays_oom() -> None:
    diagnosis = diagnose_text("train.log", "OSError: [Errno 12] Cannot allocate memory\n")
    assert diagnosis.category == "oom"


def test_an_op_library_built_without_device_kernels_is_the_machine() -> None:
    # docs/labelling.md#an-op-library-built-without-its-device-kernels
    diagnosis = diagnose_text(
        "train.log", "RuntimeError: roi_pool is not compiled with GPU support\n"
    )
    assert diagnosis.category == "driver_env"


def test_a_torch_build_without_cuda_stays_the_jobs_choice() -> None:
    diagnosis = diagnose_text("train.log", "AssertionError: Torch not compiled with CUDA enabled\n")
    assert diagnosis.category == "config"


def test_a_torch_build_without_cuda_is_advised_as_a_code_path_not_a_backend() -> None:
    # docs/labelling.md#an-op-library-built-without-its-device-kernels
    diagnosis = diagnose_text("train.log", "AssertionError: Torch not compiled with CUDA enabled\n")
    assert any("instead of torch.cuda" in action for action in diagnosis.next_actions)
    assert not any("hccl backend" in action for action in diagnosis.next_actions)


def test_a_missing_distributed_backend_keeps_the_backend_advice() -> None:
    text = "RuntimeError: Distributed package doesn't have NCCL built in\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert any("hccl backend" in action for action in diagnosis.next_actions)


def test_a_cann_setting_refused_mid_log_is_config() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load (a wrong environment variable)
    text = (
        "Environment variable [HCCL_SOCKET_IFNAME] is invalid. Reason: no interface matched.\n"
        "[INFO] worker 2 leaving\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "config", first_error="HCCL_SOCKET_IFNAME")


def test_a_dependency_outside_the_supported_range_is_config() -> None:
    text = "AssertionError: MMCV==1.4.0 is used but incompatible. Please install mmcv>=2.0.0, <2.2.0.\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"


def test_a_second_backward_through_one_graph_is_the_step_setup() -> None:
    # docs/labelling.md#a-step-that-runs-backward-twice
    text = "RuntimeError: Trying to backward through the graph a second time\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_backward_from_a_loss_without_a_graph_is_the_step_setup() -> None:
    # docs/labelling.md#a-step-that-runs-backward-twice (a loss with no graph)
    text = (
        "prefill start: 16 tokens (step 0)\n"
        "layer 3 passed\n"
        "model run failed\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/ddp-train/train.py", line 181, in main\n'
        "    loss.backward()\n"
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n"
    )
    diagnosis = diagnose_text("log_3.log", text)
    assert_reads(diagnosis, "config", first_error="does not require grad", beside=("other",))


def test_a_note_about_frozen_parameters_is_no_failure() -> None:
    text = "INFO froze 12 parameters: they do not require grad and are left out of the optimizer\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "config"


def test_the_static_tls_refusal_offers_no_memory_reading() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: the loader's words say memory, but
    # no allocation ran short, so the memory label is not offered beside it either
    text = (
        "Error: Can not import paddle core while this file exists: /opt/env/paddle/libpaddle.so\n"
        "ImportError: /usr/lib/aarch64-linux-gnu/libgomp.so.1: cannot allocate memory in static "
        "TLS block\n"
    )
    diagnosis = diagnose_text("stderr.log", text)
    assert_reads(diagnosis, "driver_env", first_error="static TLS block", beside=("config",))
    assert "oom" not in alternative_labels(diagnosis)


def test_a_document_parser_whose_java_server_does_not_start_is_the_machine() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: tika-python needs a Java runtime
    text = "2026-03-02 10:11:12,345 ERROR 2210 parse failed: RuntimeError: Unable to start Tika server.\n"
    assert_reads(
        diagnose_text("task_executor.log", text),
        "driver_env",
        first_error="Unable to start Tika server",
        rule="env.tika_server_not_started",
        beside=("config",),
    )
