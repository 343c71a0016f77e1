"""A rank that refuses its share of a split that does not come out even over the ranks.

docs/labelling.md#a-split-that-does-not-come-out-even: a loader or a layer that divides its
experts, heads, rows or a vocabulary among the ranks and says in words that the count does not
split evenly over them (`10 experts cannot be split evenly over 4 ranks`, `... do not divide
evenly across 8 GPUs`) is the per-rank split of the weights, `weight_load`, as the bare
`N is not divisible by M` is; `config` is offered beside it (the parallel size is the usual
fix). A sentence that says the split did come out even, or that splits something other than
the ranks' work (a batch over microbatches), is no such failure.

Fixtures follow the shape of a torch.multiprocessing.spawn parent's report of a child's
exception, with sizes and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SPAWN_PARENT_REPORT = """\
launching 4 ranks with torch.multiprocessing.spawn
W0312 10:11:02.118000 4410 torch/multiprocessing/spawn.py:165] Terminating process 4412 via signal SIGTERM
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 2 terminated with the following error:
Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/srv/moe/load.py", line 61, in load_experts
    raise ValueError(
ValueError: layer 5 experts: 12 experts cannot be split evenly over 8 ranks (rank 2 would hold 1.5)
"""

WORDED_OTHERWISE = """\
[rank3]: AssertionError: the vocabulary of 151655 rows does not divide evenly across 4 GPUs; pad it to a multiple of 4
"""

SPLIT_CAME_OUT_EVEN = """\
INFO load.py:40] 16 experts are split evenly over 8 ranks (2 per rank)
INFO load.py:52] all ranks loaded their experts
"""

BATCH_OVER_MICROBATCHES = """\
WARNING trainer.py:88] 10 samples cannot be split evenly into 4 microbatches; the last one is padded
"""


def alternatives(diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_spawned_ranks_uneven_expert_split_is_the_weights_split() -> None:
    diagnosis = diagnose_text("launcher.log", SPAWN_PARENT_REPORT)
    assert_reads(diagnosis, "weight_load", first_error="cannot be split evenly over 8 ranks")
    assert "config" in alternatives(diagnosis)


def test_the_same_refusal_in_other_words() -> None:
    diagnosis = diagnose_text("log_3.log", WORDED_OTHERWISE)
    assert_reads(diagnosis, "weight_load", first_error="does not divide evenly across 4 GPUs")


def test_a_split_that_came_out_even_is_no_error() -> None:
    """Counterexample: the loader reports an even split."""
    diagnosis = diagnose_text("log_0.log", SPLIT_CAME_OUT_EVEN)
    assert diagnosis.category != "weight_load", diagnosis.root_cause


def test_a_batch_split_into_microbatches_is_not_the_ranks_share() -> None:
    """Counterexample: an uneven split of a batch over microbatches, only a warning."""
    diagnosis = diagnose_text("train.log", BATCH_OVER_MICROBATCHES)
    assert diagnosis.category != "weight_load", diagnosis.root_cause
