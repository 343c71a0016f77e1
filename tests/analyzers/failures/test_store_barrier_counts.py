"""The store-based barrier's own count against the world size it was given.

docs/labelling.md#more-processes-joined-than-the-world-holds: more processes than the world
holds means a second launch shares the store (`config`, `hccl` beside it); fewer is a wait
for ranks that never came (`hccl`). Tracebacks in the shape torch's `_store_based_barrier`
raises them, values of our own.
"""

from __future__ import annotations

import pytest

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

BARRIER = """\
Traceback (most recent call last):
  File "train_asr.py", line 74, in <module>
    main(args)
  File "train_asr.py", line 31, in main
    dist.init_process_group(backend="nccl", init_method="env://")
  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 576, in init_process_group
    _store_based_barrier(rank, store, timeout)
  File "/opt/conda/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 229, in _store_based_barrier
    raise RuntimeError(
RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 (world_size={size}, worker_count={joined}, timeout=0:30:00)
"""


def test_more_processes_than_the_world_is_a_second_launch_on_the_same_store() -> None:
    diagnosis = diagnose_text("logs/train_0.log", BARRIER.format(size=4, joined=8))
    assert_reads(diagnosis, "config", first_error="worker_count=8", beside=("hccl",))


@pytest.mark.parametrize("joined", [3, 4])
def test_a_count_at_or_below_the_world_stays_a_wait_for_ranks(joined: int) -> None:
    diagnosis = diagnose_text("logs/train_0.log", BARRIER.format(size=4, joined=joined))
    assert diagnosis.category == "hccl"


def test_the_numbers_decide_not_their_digits() -> None:
    rule = next(s for s in load_knowledge().signatures if s.id == "cfg.store_barrier_overfull")
    line = "store based barrier on rank: 0, for key: k (world_size={}, worker_count={}, t"
    assert rule.search(line.format(9, 10))
    assert not rule.search(line.format(10, 9))
