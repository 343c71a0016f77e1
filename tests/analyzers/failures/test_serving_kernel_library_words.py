"""Failures that serving engines on CUDA meet inside their kernel libraries and helpers.

docs/labelling.md#operator-installation-or-platform-limit: a kernel library's own check that
refuses the card's architecture, with no architecture named (FlashInfer's `Error in function
'<runner>' at <header>:<line>: Unsupported architecture`), is a back end that does not fit the
card (`config`); its prefill dispatch that finds no valid tile configuration for this card and
head size (`FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=...`) is the kernel's
own failure (`operator`).
docs/labelling.md#config-driver_env-or-weight_load: the CUDA runtime's enum for a driver older
than the runtime (`cudaErrorInsufficientDriver`, as a CUDA binding prints it with its number)
is the machine's driver (`driver_env`), like the sentence torch prints for it.
docs/labelling.md#an-allocation-reported-through-torchs-stable-abi: an extension op that calls
an allocating aten op through torch's stable ABI reports only that the call failed; the shim's
`Exception in aoti_torch:` line before it says why, and alone the allocation reads as `oom`
below the confident band.
docs/labelling.md#a-grammar-the-structured-output-backend-cannot-advance: the structured-output
backend's grammar state that refuses the tokens the model produced ends the request: `other`,
with `config` beside it.

Fixtures are written in the shape of SGLang scheduler and vLLM engine-core lines, with paths,
names and numbers of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

ARCH_REFUSED = [
    (
        "sglang_scheduler",
        """\
[2026-03-02 09:14:05 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/layers/attention/trtllm_mla_backend.py", line 611, in forward_decode
    raw_out = flashinfer.decode.trtllm_batch_decode_with_kv_cache_mla(
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
tvm.error.InternalError: Error in function 'TllmGenFmhaRunner' at /opt/venv/lib/python3.12/site-packages/flashinfer/data/include/flashinfer/trtllm/fmha/fmhaRunner.cuh:41: Unsupported architecture
""",
    ),
    (
        "bare_runtime_error",
        """\
RuntimeError: Error in function 'TllmGenFmhaRunner' at /home/ops/.venv/lib/python3.12/site-packages/flashinfer/data/include/flashinfer/trtllm/fmha/fmhaRunner.cuh:28: Unsupported architecture
""",
    ),
]


@pytest.mark.parametrize(("name", "text"), ARCH_REFUSED, ids=[n for n, _ in ARCH_REFUSED])
def test_a_kernel_runner_that_refuses_the_architecture_is_the_platform_limit(
    name: str, text: str
) -> None:
    diagnosis = diagnose_text(f"{name}.log", text)
    assert_reads(
        diagnosis, "config", first_error="Unsupported architecture", beside=("op_constraint",)
    )


def test_a_fallback_notice_about_an_architecture_is_no_failure() -> None:
    text = "INFO 03-02 09:14:05 [flashinfer.py:88] Unsupported architecture for trtllm-gen attention, using the FA2 backend\n"
    diagnosis = diagnose_text("serve.log", text)
    assert (
        diagnosis.first_error is None
        or "Unsupported architecture" not in diagnosis.first_error.text
    )


INVALID_TILE = """\
(EngineCore pid=2211) ERROR 04-11 16:20:31 [core.py:1240]   File "/opt/venv/lib/python3.12/site-packages/flashinfer/prefill.py", line 3101, in run
(EngineCore pid=2211) ERROR 04-11 16:20:31 [core.py:1240]     self._cached_module.paged_run(*run_args)
(EngineCore pid=2211) ERROR 04-11 16:20:31 [core.py:1240] RuntimeError: Error in function 'BatchPrefillWithPagedKVCacheDispatched' at /opt/venv/lib/python3.12/site-packages/flashinfer/data/include/flashinfer/attention/prefill.cuh:3702: FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=2 NUM_MMA_D_QK=8 NUM_MMA_D_VO=8 NUM_MMA_KV=1 NUM_WARPS_Q=4 NUM_WARPS_KV=1 please create an issue (https://github.com/flashinfer-ai/flashinfer/issues) and report the issue to the developers.
"""


def test_a_kernel_dispatch_with_no_valid_tile_configuration_is_the_kernels_failure() -> None:
    diagnosis = diagnose_text("engine.log", INVALID_TILE)
    assert_reads(diagnosis, "operator", first_error="Invalid configuration", beside=("config",))


INSUFFICIENT_DRIVER = """\
  File "/opt/venv/lib/python3.12/site-packages/flashinfer/comm/mnnvl.py", line 402, in __init__
    checkCudaErrors(cuda.cuMemCreate(size, prop, 0))
  File "/opt/venv/lib/python3.12/site-packages/flashinfer/cuda_utils.py", line 49, in checkCudaErrors
    raise RuntimeError(
RuntimeError: CUDA error code=35(b'cudaErrorInsufficientDriver')

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", line 3010, in run_scheduler_process
    scheduler = Scheduler(
                ^^^^^^^^^^
"""


def test_the_runtimes_enum_for_an_old_driver_is_the_machine() -> None:
    diagnosis = diagnose_text("scheduler.log", INSUFFICIENT_DRIVER)
    assert_reads(diagnosis, "driver_env", first_error="cudaErrorInsufficientDriver")


STABLE_ABI_ALONE = """\
(EngineCore pid=318) ERROR 06-02 11:40:07 [core.py:1188]   File "/opt/venv/lib/python3.12/site-packages/torch/_ops.py", line 1255, in __call__
(EngineCore pid=318) ERROR 06-02 11:40:07 [core.py:1188]     return self._op(*args, **kwargs)
(EngineCore pid=318) ERROR 06-02 11:40:07 [core.py:1188] RuntimeError: torch_call_dispatcher( "aten::empty", "memory_format", stack.data(), TORCH_ABI_VERSION) API call failed at /opt/venv/lib/python3.12/site-packages/torch/include/torch/csrc/stable/ops.h, line 611
(EngineCore pid=318) Process EngineCore:
"""

STABLE_ABI_WITH_REASON = """\
[E602 11:40:07.418822 318 shim_common.cpp:1402] Exception in aoti_torch: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.52 GiB of which 402.19 MiB is free.
(EngineCore pid=318) ERROR 06-02 11:40:07 [core.py:1188] RuntimeError: torch_call_dispatcher( "aten::empty_strided", "", stack.data(), TORCH_ABI_VERSION) API call failed at /opt/venv/lib/python3.12/site-packages/torch/include/torch/csrc/stable/ops.h, line 640
"""


def test_an_allocation_through_the_stable_abi_alone_reads_as_memory() -> None:
    diagnosis = diagnose_text("engine.log", STABLE_ABI_ALONE)
    assert_reads(diagnosis, "oom", first_error="torch_call_dispatcher")
    assert diagnosis.confidence < 0.8
    assert "other" in alternative_labels(diagnosis)


def test_the_shims_reason_before_the_stable_abi_call_is_the_first_error() -> None:
    diagnosis = diagnose_text("engine.log", STABLE_ABI_WITH_REASON)
    assert_reads(diagnosis, "oom", first_error="Exception in aoti_torch")


def test_a_stable_abi_call_of_a_compute_op_is_not_read_as_memory() -> None:
    text = (
        '(EngineCore pid=318) ERROR 06-02 11:40:07 [core.py:1188] RuntimeError: torch_call_dispatcher( "aten::mm", "", '
        "stack.data(), TORCH_ABI_VERSION) API call failed at /opt/venv/include/torch/csrc/stable/ops.h, line 702\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.category != "oom", diagnosis.root_cause


FSM_REFUSED = """\
(EngineCore pid=905) ERROR 08-14 02:31:50 [backend_xgrammar.py:171] Failed to advance FSM for request chatcmpl-7d1e0c2b9a4f-0 for tokens 1187. Please file an issue.
(EngineCore pid=905) ERROR 08-14 02:31:50 [scheduler.py:1502] grammar rejected tokens [1187, 30522, 13]. Terminating request.
(APIServer pid=870) INFO:     10.0.4.7:51872 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error
"""


def test_a_grammar_that_refuses_the_models_tokens_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve.log", FSM_REFUSED)
    assert_reads(diagnosis, "other", first_error="Failed to advance FSM", beside=("config",))


def test_the_structured_output_backend_choice_is_no_failure() -> None:
    text = "(EngineCore pid=905) INFO 08-14 02:30:02 [__init__.py:88] Using xgrammar as the structured output backend; advance FSM on accepted tokens\n"
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is None
