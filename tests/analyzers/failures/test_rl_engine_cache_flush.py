"""A serving engine that declines to flush its cache after an RL trainer updated its weights.

SGLang flushes its prefix cache after a weight update only when no request is in flight; it
otherwise warns that the cache was not flushed and, on the update's path, asserts the flush and
its scheduler stops (docs/labelling.md#a-cache-flush-refused-after-a-weight-update). The
excerpts follow the engine's real shapes (a Ray actor's prefix, the scheduler's traceback) with
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.engine_cache_flush_refused_after_weight_update"


UPDATE_WITH_REQUESTS_RUNNING = """\
(RolloutManager pid=2210) 20260304-10:20:29.118 rollout INFO: pushing weights of version 12 to 4 servers
(RolloutServer pid=3120) [2026-03-04 10:20:30] Cache not flushed because there are pending requests. #queue-req: 1, #running-req: 3
(RolloutServer pid=3120) [2026-03-04 10:20:30] Scheduler hit an exception: Traceback (most recent call last):
(RolloutServer pid=3120)   File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2290, in run_scheduler_process
(RolloutServer pid=3120)     scheduler.event_loop_overlap()
(RolloutServer pid=3120)   File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2055, in update_weights_from_distributed
(RolloutServer pid=3120)     assert flush_cache_success, "Cache flush failed after updating weights"
(RolloutServer pid=3120) AssertionError: Cache flush failed after updating weights
"""


def test_a_flush_declined_during_a_weight_update_is_the_first_error() -> None:
    diagnosis = diagnose_text("rollout.log", UPDATE_WITH_REQUESTS_RUNNING)
    assert_reads(
        diagnosis,
        "other",
        first_error="Cache not flushed because there are pending requests",
        rule=RULE,
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_a_flush_that_succeeds_is_no_failure() -> None:
    text = (
        '(RolloutServer pid=3120) INFO:     10.0.0.7:51022 - "POST /flush_cache HTTP/1.1" 200 OK\n'
        "(RolloutServer pid=3120) [2026-03-04 10:20:31] Cache flushed successfully!\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert RULE not in rules_of(diagnosis)
