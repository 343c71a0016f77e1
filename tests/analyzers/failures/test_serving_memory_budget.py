"""An LLM server's own refusal of a batch its memory budget cannot hold.

docs/labelling.md#a-server-that-says-its-batch-does-not-fit-its-memory: TGI's warm-up runs
the largest prefill its settings allow and turns the device's out-of-memory into `Not enough
memory to handle N prefill tokens`; SGLang's scheduler stops when its KV-cache or request-slot
pool has no room for the next batch (`Prefill out of memory. Try to lower your batch size.`,
`alloc_req_slots runs out of memory`). The server's memory ran short for the batch it chose:
`oom`, with `config` beside it (the batch, token or request limit is the usual fix). A
server's note that it caps a size to fit, or its pool figures, are no failure.

The excerpts follow TGI's launcher lines and SGLang's scheduler lines; the values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

TGI_WARMUP = """\
2026-03-04T05:06:07.120000Z  INFO text_generation_router: router/src/main.rs:210: Warming up model
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/flash_causal_lm.py", line 901, in warmup
    raise RuntimeError(
RuntimeError: Not enough memory to handle 8192 prefill tokens. You need to decrease `--max-batch-prefill-tokens`

2026-03-04T05:06:09.004511Z ERROR text_generation_launcher: Method Warmup encountered an error.
Traceback (most recent call last):
  File "/opt/conda/lib/python3.11/site-packages/text_generation_server/models/flash_causal_lm.py", line 899, in warmup
    _, batch, _ = self.generate_token(batch)
"""


def test_a_warm_up_batch_the_shards_cannot_hold_is_memory() -> None:
    diagnosis = diagnose_text("text-generation-launcher.log", TGI_WARMUP)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Not enough memory to handle 8192 prefill tokens",
        rule="oom.server_batch_over_memory_budget",
        beside=["config"],
    )
    assert diagnosis.confidence >= 0.8


SGLANG_POOL = """\
[2026-03-04 05:06:07 TP0] Decode batch, #running-req: 6, #token: 1920, token usage: 0.94, cuda graph: True, gen throughput (token/s): 440.12, #queue-req: 5,
[2026-03-04 05:06:08 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/mem_cache/common.py", line 412, in alloc_paged_token_slots_extend
    raise RuntimeError(error_msg)
RuntimeError: Prefill out of memory. Try to lower your batch size.
Try to allocate 4096 tokens.
Available full tokens: 1024 (full_available_size=1024 + full_evictable_size_=0)
[2026-03-04 05:06:08] Received sigquit from a child process. It usually means the child failed.
"""


def test_a_kv_pool_with_no_room_for_the_prefill_is_memory() -> None:
    diagnosis = diagnose_text("sglang.log", SGLANG_POOL)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Prefill out of memory",
        rule="oom.server_batch_over_memory_budget",
        beside=["config"],
    )
    assert diagnosis.confidence >= 0.8


def test_a_request_slot_pool_with_no_room_reads_the_same() -> None:
    text = (
        "[2026-03-04 05:06:07 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        "RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for "
        "`--max-running-requests`. self.req_to_token_pool.available_size()=0, num_reqs=3,\n"
    )
    diagnosis = diagnose_text("sglang.log", text)
    assert_reads(
        diagnosis, "oom", first_error="alloc_req_slots runs out of memory", beside=["config"]
    )
    assert diagnosis.confidence >= 0.8


def test_a_server_capping_a_size_to_fit_is_no_failure() -> None:
    """Pool figures and a cap the server applies itself leave the real error to speak."""
    text = (
        "[2026-03-04 05:06:07 TP0] max_total_tokens=131072 is larger than the profiled value "
        "98304. Use the profiled value instead.\n"
        "[2026-03-04 05:06:07 TP0] Memory pool end. avail mem=5.71 GB\n"
        "[2026-03-04 05:06:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        "ValueError: The input (9000 tokens) is longer than the model's context length (8192 "
        "tokens).\n"
    )
    diagnosis = diagnose_text("sglang.log", text)
    assert diagnosis.category != "oom"
    assert "oom" not in alternative_labels(diagnosis)[:1]
