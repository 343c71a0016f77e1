"""ZeRO-3 ranks about to gather or reduce other parameters than rank 0.

docs/labelling.md#zero-3-ranks-that-fetch-other-parameters: DeepSpeed's check that every rank
holds the same list of parameter ids as rank 0 is the ranks disagreeing about their collectives,
`hccl`, with `other` and `config` beside it, and the first error. Excerpts in the
shapes a Lightning or torchrun job prints, with ids of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

UNDER_TORCHRUN = """\
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 331, in fetch_sub_module
[rank3]:     assert_ints_same_as_other_ranks([p.ds_id for p in params_to_fetch])
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/utils.py", line 901, in assert_ints_same_as_other_ranks
[rank3]:     raise RuntimeError(f"disagreement between rank0 and rank{dist.get_rank()}: "
[rank3]: RuntimeError: disagreement between rank0 and rank3: rank0: [212, 213, 214, 240, 241], rank3: [212, 213, 215, 250, 251]
W0611 09:12:44.118000 40211 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 40255 closing signal SIGTERM
E0611 09:12:46.532000 40211 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 3 (pid: 40258) of binary: /opt/venv/bin/python
"""

# The bare exception as a Lightning job leaves it, the lists running over two lines.
BARE = """\
RuntimeError: disagreement between rank0 and rank6: rank0: [3, 4, 5, 9, 10, 11, 12, 17, 18, \
..., 301, 302], 
rank6: [3, 4, 5, 9, 10, 11, 14, 19, 20, ..., 305, 306]
"""

DEBUG_NOTE = """\
[2026-06-11 09:10:02,118] [DEBUG] [partitioned_param_coordinator.py:318:fetch_sub_module] \
checking agreement between rank0 and rank3 on 5 parameter ids
step 40 loss 2.118
"""


def test_ranks_about_to_gather_other_parameters_disagree_about_the_collective() -> None:
    diagnosis = diagnose_text("train.log", UNDER_TORCHRUN)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="disagreement between rank0 and rank3",
        rule="hccl.zero3_param_ids_disagree",
    )
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert "other" in alternatives or "config" in alternatives


def test_the_bare_exception_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", BARE)
    assert_reads(diagnosis, "hccl", first_error="disagreement between rank0 and rank6")


def test_a_debug_line_about_the_check_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", DEBUG_NOTE)
    assert "hccl.zero3_param_ids_disagree" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


# A Trainer run whose traceback was kept up to the headline, the id lists cut away.
HEADLINE_ONLY = """\
  File "/opt/venv/lib/python3.10/site-packages/accelerate/accelerator.py", line 1902, in backward
    self.deepspeed_engine_wrapped.backward(loss, **kwargs)
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/utils/nvtx.py", line 15, in wrapped_fn
    ret_val = func(*args, **kwargs)
RuntimeError: disagreement between rank0 and rank5: rank0
"""

OTHER_DISAGREEMENT = (
    "RuntimeError: disagreement between rank0 and rank2: rank0 saw 8 workers, rank2 saw 4\n"
)


def test_the_headline_without_its_lists_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", HEADLINE_ONLY)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="disagreement between rank0 and rank5",
        rule="hccl.zero3_param_ids_disagree",
    )


def test_a_disagreement_about_something_else_is_not_the_zero3_check() -> None:
    diagnosis = diagnose_text("train.log", OTHER_DISAGREEMENT)
    assert "hccl.zero3_param_ids_disagree" not in rules_of(diagnosis)
