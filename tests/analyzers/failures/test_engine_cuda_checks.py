"""An inference engine's own CUDA call check, and a sharded launch that needs flash attention.

docs/labelling.md#a-native-assertion-no-rule-knows
docs/labelling.md#a-precision-the-device-does-not-offer
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# TurboMind's check macro throws; nothing catches it, so the C++ terminate handler prints a
# generic headline and the engine's message after what().
TERMINATE_INVALID_ARGUMENT = """\
$ python3 -m lmdeploy.turbomind.chat internlm ./workspace/

[WARNING] gemm_config.in is not found; using default GEMM algo
terminate called after throwing an instance of 'std::runtime_error'
  what():  [FT][ERROR] CUDA runtime error: invalid argument /opt/engine/src/turbomind/utils/allocator.h:252 

Aborted (core dumped)
"""

# The same macro reporting a failed device under a running kernel.
TERMINATE_MISALIGNED = """\
terminate called after throwing an instance of 'std::runtime_error'
  what():  [TM][ERROR] CUDA runtime error: misaligned address /opt/engine/src/turbomind/models/llama/unified_attention_layer.cc:353

"""

# A TensorRT-LLM runtime running out of device memory in the same spelling.
TRT_OUT_OF_MEMORY = """\
Traceback (most recent call last):
  File "/app/examples/run.py", line 478, in main
    runner = runner_cls.from_dir(**runner_kwargs)
RuntimeError: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/app/cpp/tensorrt_llm/runtime/tllmBuffers.h:117)
"""

# text-generation-inference's shard refuses to shard a model type without flash attention; the
# launcher reports the shard that did not start.
TGI_SHARDED_NEEDS_FLASH = """\
  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/__init__.py", line 193, in get_model
    raise NotImplementedError(FLASH_ATT_ERROR_MESSAGE.format("Sharded Llama"))

NotImplementedError: Sharded Llama requires Flash Attention enabled models.
 rank=0
2023-07-24T02:39:20.704629Z ERROR text_generation_launcher: Shard 0 failed to start
2023-07-24T02:39:20.704663Z  INFO text_generation_launcher: Shutting down shards
2023-07-24T02:39:20.781260Z  INFO shard-manager: text_generation_launcher: Shard terminated rank=1
Error: ShardCannotStart
"""

# The launcher's warning that it falls back: it carries on, so it is no failure.
TGI_FLASH_WARNING_ONLY = """\
2023-07-24T02:38:01.100000Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: cuda is not available
2023-07-24T02:38:30.400000Z  INFO text_generation_launcher: Shard ready in 29.3s rank=0
"""


def test_an_engines_cuda_check_after_what_is_the_first_error_not_the_terminate_headline() -> None:
    diagnosis = diagnose_text("logs/engine.log", TERMINATE_INVALID_ARGUMENT)
    assert diagnosis.first_error is not None
    assert "[FT][ERROR] CUDA runtime error: invalid argument" in diagnosis.first_error.text
    assert "native.engine_cuda_check" in {e.rule for e in diagnosis.evidence}
    assert diagnosis.confidence < 0.5


def test_an_engines_cuda_check_naming_a_failed_device_is_a_device_fault() -> None:
    diagnosis = diagnose_text("logs/engine.log", TERMINATE_MISALIGNED)
    assert_reads(diagnosis, "device_fault", first_error="CUDA runtime error: misaligned address")


def test_an_engines_cuda_check_out_of_memory_stays_oom() -> None:
    diagnosis = diagnose_text("logs/engine.log", TRT_OUT_OF_MEMORY)
    assert diagnosis.category == "oom"


def test_a_sharded_launch_that_needs_flash_attention_is_config() -> None:
    diagnosis = diagnose_text("logs/launcher.log", TGI_SHARDED_NEEDS_FLASH)
    assert_reads(
        diagnosis,
        "config",
        first_error="Sharded Llama requires Flash Attention enabled models",
        beside=("driver_env",),
    )


def test_the_launchers_flash_attention_fallback_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/launcher.log", TGI_FLASH_WARNING_ONLY)
    assert "cfg.sharding_needs_flash_attention" not in {e.rule for e in diagnosis.evidence}
