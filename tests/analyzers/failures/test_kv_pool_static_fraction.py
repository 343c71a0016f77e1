"""A serving engine whose static memory share leaves no room for its KV cache pool.

SGLang reserves a static fraction of each device (`--mem-fraction-static`) for the weights
and the KV cache pool; after loading the weights its memory-pool profiler sizes the pool from
what the fraction leaves. When nothing is left it refuses to start: older releases say `Not
enough memory. Please try to increase --mem-fraction-static.`, newer ones `Loaded weights leave
no GPU memory for the KV cache under --mem-fraction-static=0.88.` It is the same check as
vLLM's `No available memory for the cache blocks`, read the same way: device memory for the
engine's own KV cache is what is short, `oom`, and the refusal is the first error
(docs/labelling.md#device-memory-already-taken-when-a-server-starts).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NEWER = """\
[2026-07-09 11:02:41 TP0] Load weight end. quant=fp8, fmt=e4m3, avail mem=12.25 GB, mem usage=125.65 GB.
[2026-07-09 11:02:42 TP0] Scheduler hit an exception: Traceback (most recent call last):
ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88.
"""

OLDER = """\
Process Process-1:
router init state: Traceback (most recent call last):
  File "/opt/sglang/srt/managers/router/manager.py", line 68, in start_router_process
    model_client = ModelRpcClient(server_args, port_args)
RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.
"""

# Counterexamples: the profiler's sizing line and the launch settings are no refusal.
SIZED = """\
[2026-07-09 11:02:43 TP0] KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB
[2026-07-09 11:02:43 TP0] Memory pool end. avail mem=9.81 GB
"""

SETTINGS = """\
[2026-07-09 11:01:02] server_args=ServerArgs(model_path='/models/m', tp_size=8, mem_fraction_static=0.88, chunked_prefill_size=8192)
"""


def test_no_room_for_the_kv_cache_under_the_static_fraction_is_oom() -> None:
    diagnosis = diagnose_text("server.log", NEWER)
    assert_reads(
        diagnosis, "oom", first_error="Loaded weights leave no GPU memory for the KV cache"
    )
    assert diagnosis.confidence >= 0.5


def test_the_older_wording_is_read_the_same() -> None:
    diagnosis = diagnose_text("server.log", OLDER)
    assert_reads(diagnosis, "oom", first_error="Not enough memory. Please try to increase")
    assert diagnosis.confidence >= 0.5


def test_a_sized_pool_is_no_failure() -> None:
    diagnosis = diagnose_text("server.log", SIZED)
    assert diagnosis.first_error is None


def test_the_fraction_setting_is_no_failure() -> None:
    diagnosis = diagnose_text("server.log", SETTINGS)
    assert diagnosis.first_error is None
