"""The graph engine's device allocator, and the AI CPU, report device memory they could not get.

docs/labelling.md#probes-yield-to-their-reason covers start-up; this is the same reading at
run time. CANN's graph engine asks the runtime for its own device memory (a graph's feature
maps, an op's workspace) and logs a refusal in its allocator's words: `[Malloc][Memory]
failed, rt_ret:207001` from the device allocator (its caching allocator's line after it only
restates it). The AI CPU says the same of its own allocations (`Device Aicpu oom`). A
framework allocator that keeps the whole card leaves none for them, and the stall that
follows only times out later (507017). The refusal is the first error and the label `oom`.
Lines of our own in the plog format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ALLOCATOR_REFUSED = (
    "[ERROR] GE(8120,python):2026-10-10-12:07:40.101.300 [device_allocator.cc:96]8190 "
    "Malloc:[Malloc][Memory] failed, rt_ret:207001, size=524288000\n"
    "[ERROR] GE(8120,python):2026-10-10-12:07:40.101.390 [caching_mem_allocator.cc:301]8190 "
    "Malloc: Failed to apply for memory, size:524288000\n"
    "[ERROR] RUNTIME(8120,python):2026-10-10-12:09:55.300.100 [device_error_proc.cc:1702]8201 "
    "ProcessAicpuErrorInfo:Device Aicpu oom, ret=0x7110012\n"
)


def test_the_graph_engine_allocator_refusal_is_a_memory_shortage() -> None:
    diagnosis = diagnose_text("plog-8120.log", ALLOCATOR_REFUSED)
    assert_reads(
        diagnosis,
        "oom",
        first_error="[Malloc][Memory] failed",
        rule="oom.cann_component_alloc_refused",
    )
    assert diagnosis.confidence >= 0.5


def test_the_ai_cpu_out_of_memory_alone_is_a_memory_shortage() -> None:
    text = ALLOCATOR_REFUSED.split("\n", 2)[2]
    diagnosis = diagnose_text("plog-8120.log", text)
    assert_reads(diagnosis, "oom", first_error="Device Aicpu oom")


def test_an_allocation_the_allocator_made_is_no_failure() -> None:
    text = (
        "[INFO] GE(8120,python):2026-10-10-12:07:40.101.300 [device_allocator.cc:90]8190 "
        "Malloc:[Malloc][Memory] size=524288000, addr=0x124080000000\n"
        "[ERROR] RUNTIME(8120,python):2026-10-10-12:18:40.020.010 [stream.cc:1402]8190 "
        "SynchronizeExecutedTask:Stream synchronize timeout, device_id=0, stream_id=3, "
        "timeout=540000, tryCount=10.\n"
    )
    diagnosis = diagnose_text("plog-8120.log", text)
    assert "oom.cann_component_alloc_refused" not in rules_of(diagnosis)
    assert diagnosis.category != "oom"
