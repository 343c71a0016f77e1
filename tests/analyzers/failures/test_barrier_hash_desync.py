"""A training framework's barrier that all-reduces a hash of its name and finds the sum wrong.

docs/labelling.md#a-barrier-that-compares-hashed-names-across-ranks: the sum differs when the
ranks hash the name differently (string hashing seeded per process) or stand at different
barriers after a collective ran out of time. The usual fix is the job's setting, so the line
is `config`, with the collective (`hccl`) and a stall (`hang`) beside it. Tracebacks in the
shape the framework raises them, values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

DESYNC = """\
2026-01-14 08:02:11,530 [Rank 2] INFO Setting up the model
Traceback (most recent call last):
  File "/opt/llm/engine/training/trainer.py", line 210, in setup
    safe_barrier(self._distributed.world_group, "{name}")
  File "/opt/llm/core/distributed.py", line 141, in safe_barrier
    raise RuntimeError(f"Desync detected for barrier {{value}} ({{out}}!={{hashed*group.size()}})")
RuntimeError: Desync detected for barrier {name} ({got}!={want})
"""

PASSED = """\
2026-01-14 08:02:11,530 [Rank 2] INFO Setting up the model
2026-01-14 08:02:12,004 [Rank 2] INFO barrier train begin passed, no desync detected
2026-01-14 08:02:12,117 [Rank 2] INFO Training step 1
"""


def test_a_barrier_whose_hash_sum_differs_is_a_setting() -> None:
    text = DESYNC.format(name="train begin", got=70219844, want=92736512)
    diagnosis = diagnose_text("logs/rank_2.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Desync detected for barrier train begin",
        rule="cfg.barrier_hash_desync",
        beside=("hccl", "hang"),
    )


def test_the_same_check_after_a_save_reads_the_same() -> None:
    text = DESYNC.format(name="export 200 exit", got=0, want=310442908)
    diagnosis = diagnose_text("logs/rank_5.log", text)
    assert_reads(diagnosis, "config", first_error="Desync detected for barrier export 200 exit")


def test_a_barrier_that_passed_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/rank_2.log", PASSED)
    assert diagnosis.category != "config"
    assert "cfg.barrier_hash_desync" not in {e.rule for e in diagnosis.evidence}
