"""A sharded optimizer state whose ranks disagree on a scalar when it is gathered
(docs/labelling.md#an-optimizer-state-whose-ranks-disagree-on-a-count).

FSDP gathers every rank's optimizer state into one state dict to save or convert it, and
checks that the scalars each rank holds for a parameter (Adam's `step`) are the same
everywhere: `Rank 3 has different values for step: 1204.0. Other ranks: 1198.0`. The ranks
updated that parameter a different number of times, so no one state can be written. No layer
failed by name: `other`, with `config` beside it, and the check's line is the first error.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GATHERED_AT_SAVE = """\
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_optim_utils.py", line 1652, in _all_gather_optim_state
[rank0]:     assert (
[rank0]: AssertionError: Rank 3 has different values for step: 1204.0. Other ranks: 1198.0
"""

BARE_LINE = "AssertionError: Rank 1 has different values for step: 310.0 Other ranks: 308.0\n"

AGREEING = "[rank0]: optimizer state gathered: all 8 ranks hold the same values for step (1204)\n"


def test_the_gathered_state_check_reads_as_ranks_that_diverged() -> None:
    diagnosis = diagnose_text("train/rank0.log", GATHERED_AT_SAVE)
    assert_reads(
        diagnosis,
        "other",
        first_error="Rank 3 has different values for step",
        rule="other.optim_state_ranks_disagree",
        beside=["config"],
    )


def test_the_check_is_read_from_its_line_alone() -> None:
    diagnosis = diagnose_text("train.log", BARE_LINE)
    assert_reads(
        diagnosis,
        "other",
        first_error="has different values for step: 310.0",
        rule="other.optim_state_ranks_disagree",
    )
    assert diagnosis.confidence > 0.2


def test_ranks_that_agree_are_no_failure() -> None:
    diagnosis = diagnose_text("train/rank0.log", AGREEING)
    assert "other.optim_state_ranks_disagree" not in rules_of(diagnosis)
