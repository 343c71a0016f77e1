"""A serving runtime that refuses an engine built without the features its batching needs.

docs/labelling.md#an-engine-built-without-what-its-batching-mode-needs: TensorRT-LLM's
in-flight batching model (Triton's `tensorrt_llm` backend, the executor) takes only engines
built with the GPT attention plugin, packed input and a paged KV cache, and says so when the
model instance is created: `TrtGptModelInflightBatching requires GPT attention plugin with
packed input and paged KV cache.` The engine's build options do not fit the batching mode the
model configuration chose: `config`, and Triton's `failed to load` line that carries it is the
first error. The runtime's INFO lines about the model it built (`TRTGptModel maxBatchSize`)
are no failure.

The excerpts follow Triton's glog lines and TensorRT-LLM's bracketed tags; the values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSED = """\
I0304 05:06:07.100000 4410 python_be.cc:2115] TRITONBACKEND_ModelInstanceInitialize: preprocessing_0_0 (CPU device 0)
[TensorRT-LLM][INFO] MPI size: 1, rank: 0
[TensorRT-LLM][INFO] TRTGptModel maxNumSequences: 8
[TensorRT-LLM][INFO] Loaded engine size: 6410 MiB
E0304 05:06:09.200000 4410 model_lifecycle.cc:622] failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: TrtGptModelInflightBatching requires GPT attention plugin with packed input and paged KV cache.
"""


def test_an_engine_without_the_batching_features_is_its_build_options() -> None:
    diagnosis = diagnose_text("tritonserver.log", REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="requires GPT attention plugin with packed input and paged KV cache",
        rule="cfg.engine_lacks_batching_features",
    )
    assert diagnosis.confidence >= 0.8


def test_the_runtime_describing_the_model_it_built_is_no_failure() -> None:
    text = (
        "[TensorRT-LLM][INFO] TRTGptModel maxBatchSize: 8\n"
        "[TensorRT-LLM][INFO] TRTGptModel packed input and paged KV cache enabled\n"
        "E0304 05:06:09.200000 4410 model_lifecycle.cc:622] failed to load 'tensorrt_llm' "
        "version 1: Internal: unexpected error when creating modelInstanceState: "
        "[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp "
        "(/src/cpp/tensorrt_llm/runtime/worldConfig.cpp:94)\n"
    )
    diagnosis = diagnose_text("tritonserver.log", text)
    assert diagnosis.category == "config"
    assert "mpiSize == tp * pp" in (diagnosis.first_error.text if diagnosis.first_error else "")
