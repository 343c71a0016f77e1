"""A backend the job asked for that the installed software does not hold: an attention backend
picked without the kernel function it is built on, and a runtime told to use an execution
provider its build does not include, which then runs on the CPU.

Fixtures are written here in the shapes a vLLM-style worker log, an ASR runtime's glog-like
line and ONNX Runtime's Python warning take; names, ids and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# docs/labelling.md#a-build-without-its-multi-gpu-path


def test_attention_backend_without_its_kernel_function_is_a_config_mismatch() -> None:
    log = (
        "(Worker_DP1_TP2 pid=5120) ERROR 03-02 10:11:12 [multiproc_executor.py:702] "
        "    assert mla_decode_fn is not None, (\n"
        "(Worker_DP1_TP2 pid=5120) ERROR 03-02 10:11:12 [multiproc_executor.py:702] "
        "AssertionError: SparseMLADecodeBackend requires mla_decode_fn. Ensure "
        "SparseMLADecodeBackend.is_available() is checked first.\n"
        "(Worker_DP1_TP3 pid=5121) ERROR 03-02 10:11:12 [multiproc_executor.py:702] "
        "WorkerProc failed to start.\n"
    )
    diagnosis = diagnose_text("serve/worker.log", log)
    assert_reads(diagnosis, "config", first_error="requires mla_decode_fn")
    alternatives = alternative_labels(diagnosis)
    assert "operator" in alternatives


def test_backend_warning_that_falls_back_is_no_failure() -> None:
    # A backend that says what it would need and picks another one has not failed: the real
    # error of the log keeps the answer.
    log = (
        "WARNING 03-02 10:11:10 [selector.py:90] FlashInferBackend requires flashinfer; "
        "falling back to the SDPA backend\n"
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total "
        "capacity; 58.10 GiB already allocated; 0 bytes free)\n"
    )
    diagnosis = diagnose_text("serve/worker.log", log)
    assert diagnosis.category == "oom"


def test_runtime_told_a_provider_its_build_lacks_is_config() -> None:
    log = (
        "/opt/asr/csrc/parse-options.cc:Read:373 ./bin/asr-offline --provider=cann "
        "--tokens=./tokens.txt ./test.wav\n"
        "/opt/asr/csrc/provider.cc:StringToProvider:40 Unsupported string: cann. Fallback to cpu\n"
    )
    diagnosis = diagnose_text("asr.log", log)
    assert_reads(
        diagnosis, "config", first_error="Unsupported string: cann", beside=("driver_env",)
    )


def test_onnx_runtime_provider_missing_from_the_wheel_is_config() -> None:
    log = (
        "/opt/py/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py:"
        "69: UserWarning: Specified provider 'CANNExecutionProvider' is not in available "
        "provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'\n"
        "  warnings.warn(\n"
    )
    diagnosis = diagnose_text("infer.log", log)
    assert_reads(diagnosis, "config", first_error="CANNExecutionProvider")


def test_one_operator_run_on_the_cpu_is_not_a_missing_provider() -> None:
    # torch_npu runs an op it has no kernel for on the CPU and says so once; the job goes on on
    # the device, so this is no failure of the device set-up.
    log = (
        "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::cummax' is not "
        "currently supported on the NPU backend and will fall back to run on the CPU. This may "
        "have performance implications. (function npu_cpu_fallback)\n"
        "epoch 1 step 20 loss 1.93\n"
    )
    diagnosis = diagnose_text("train.log", log)
    assert diagnosis.category != "config"


# docs/labelling.md#a-build-without-its-multi-gpu-path: an engine's sleep-mode allocator is a
# compiled part of the package; an installation built without it refuses the feature.


def test_sleep_mode_allocator_left_out_of_the_build_is_config() -> None:
    # The traceback's source line carries the refusal; some pastes keep only that frame.
    log = (
        '[rank3]:   File "/opt/env/lib/python3.10/site-packages/rollout_engine/device_allocator/'
        'pool.py", line 151, in get_instance\n'
        '[rank3]:     assert pool_available, "pool allocator is not available"\n'
    )
    frame_only = '[rank5]:     assert camem_available, "camem allocator is not available"\n'
    raised = "AssertionError: cumem allocator is not available\n"
    for text in (log, frame_only, raised):
        diagnosis = diagnose_text("train/rank0.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error="allocator is not available",
            rule="cfg.sleep_allocator_not_built",
            beside=("driver_env",),
        )


def test_an_allocator_that_says_it_is_available_is_no_failure() -> None:
    log = (
        "INFO 04-17 10:11:12 [worker.py:88] camem allocator is available, sleep mode enabled\n"
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total "
        "capacity; 58.10 GiB already allocated; 0 bytes free)\n"
    )
    diagnosis = diagnose_text("train/rank0.log", log)
    assert diagnosis.category == "oom", diagnosis.root_cause
