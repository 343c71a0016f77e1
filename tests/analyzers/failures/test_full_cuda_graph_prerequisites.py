"""A full CUDA graph capture that the attention backend cannot serve.

vLLM's attention backends say at start-up whether they can be captured whole in one CUDA
graph. FlashAttention's metadata builder needs ahead-of-time scheduling for it, which only
FlashAttention 3 offers, so on a GPU or a build without it the builder refuses the engine's
full-graph option (`ValueError: AoT scheduling is required for full cuda graph.`), and a
trainer that starts the engine for its rollout re-raises it. Nothing failed on the device: the
graph option (or the attention backend, or the platform that picks it) has to change, the
engine-features reading: `config`, and the refusal is the first error.
(docs/labelling.md#engine-features-that-do-not-combine)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.full_cuda_graph_prerequisite_missing"

ROLLOUT_START = """\
INFO 05-14 09:12:40 [gpu_worker.py:232] Available KV cache memory: 11.20 GiB
INFO 05-14 09:12:41 [kv_cache_utils.py:716] GPU KV cache size: 204,800 tokens
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/rl/vllm_helpers.py", line 1402, in start_engine
[rank0]:     llm = LLM(**engine_args)
[rank0]:   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/flash_attn.py", line 181, in __init__
[rank0]:     raise ValueError(
[rank0]: ValueError: AoT scheduling is required for full cuda graph.
[rank0]: During handling of the above exception, another exception occurred:
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/rl/train_vl_grpo.py", line 120, in main
[rank0]:     model = load_policy(args)
[rank0]:   File "/opt/rl/vllm_helpers.py", line 1410, in start_engine
[rank0]:     raise RuntimeError(error)
[rank0]: RuntimeError: AoT scheduling is required for full cuda graph.
"""


def test_full_graph_without_aot_scheduling_is_the_engine_option() -> None:
    """docs/labelling.md#engine-features-that-do-not-combine"""
    diagnosis = diagnose_text("train.log", ROLLOUT_START)
    assert_reads(
        diagnosis,
        "config",
        first_error="ValueError: AoT scheduling is required for full cuda graph",
        rule=RULE,
    )


def test_a_backend_that_offers_full_graphs_only_with_another_build_reads_the_same() -> None:
    """docs/labelling.md#engine-features-that-do-not-combine"""
    text = (
        "ValueError: Full CUDA graph is only supported with FA3. Set VLLM_FLASH_ATTN_VERSION=3.\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert_reads(
        diagnosis, "config", first_error="Full CUDA graph is only supported with FA3", rule=RULE
    )


def test_a_notice_that_full_graphs_are_off_is_no_failure() -> None:
    """docs/labelling.md#engine-features-that-do-not-combine"""
    text = (
        "WARNING 05-14 09:12:40 [flash_attn.py:170] AoT scheduling is required for full cuda graph; "
        "falling back to piecewise capture.\n"
        "INFO 05-14 09:12:41 [gpu_model_runner.py:2300] Graph capturing finished in 12 secs\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "config"


def test_another_prerequisite_sentence_is_not_this_rule() -> None:
    """docs/labelling.md#engine-features-that-do-not-combine"""
    text = "ValueError: A tokenizer is required for chat completion requests.\n"
    diagnosis = diagnose_text("engine.log", text)
    assert RULE not in rules_of(diagnosis)
