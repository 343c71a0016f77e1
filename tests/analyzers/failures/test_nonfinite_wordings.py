"""Other wordings of a run whose numbers went non-finite.

Megatron's rerun state machine reports a NaN gradient norm as an "unexpected result" and
quotes the data-parallel collective the check guards; no collective failed. A trainer that
checks the gradient norm itself warns and skips the update. apex's loss scaler has no floor:
a scale pushed below 1 is the collapse DeepSpeed reports as "already at minimum", while one
routine halving is not an error (docs/labelling.md#numbers-that-went-non-finite).
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

# The state machine logs the failed check through Python logging, then its rerun verdict.
RERUN_LOGGED = """\
INFO:megatron.core.rerun_state_machine:RerunStateMachine initialized in mode RerunMode.VALIDATE_RESULTS
ERROR:megatron.core.rerun_state_machine:Unexpected result nan on rank 6 at iteration #412 invocation #1 (message='found NaN in local grad norm for bucket #0 in backward pass before data-parallel communication collective')
ERROR:megatron.core.rerun_state_machine:Rank 6, node dgx-14, device 6, iteration #412: First rerun: unexpected result is reproducible within the tolerance (nan = nan).
"""

# The same check raised, behind torchrun's rank prefix.
RERUN_RAISED = """\
[rank1]:   File "/opt/env/lib/python3.12/site-packages/megatron/core/rerun_state_machine.py", line 540, in validate_result
[rank1]:     raise RuntimeError(full_message)
[rank1]: RuntimeError: Rank 1, node trainer-3, device 1, iteration -1: Unexpected result inf (message='found Inf in local grad norm for bucket #0 in backward pass before data-parallel communication collective')
"""

# A speech trainer warns at every skipped step; the CTC loss warns about its own samples.
GRAD_NORM_SKIPPED = """\
[worker2:0/4] 2025-06-03 09:12:44,510 (trainer:640) INFO: 3epoch:train:1201-1800batch: iter_time=1.1e-04, loss_ctc=71.2, loss=58.4, train_time=0.51
[worker2:0/4] 2025-06-03 09:13:02,116 (trainer:617) WARNING: The grad norm is nan. Skipping updating the model.
[worker2:0/4] 2025-06-03 09:13:07,902 (ctc:74) WARNING: 2/8 samples got nan grad. These were ignored for CTC loss.
[worker2:0/4] 2025-06-03 09:13:11,004 (trainer:617) WARNING: The grad norm is nan. Skipping updating the model.
"""

# apex halves its scale after every overflowed step; here it has gone far below 1.
SCALE_COLLAPSED = """\
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 2.0
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 1.0
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 0.5
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 0.25
"""

# Counterexample: the routine halvings at the start of mixed-precision training.
SCALE_ROUTINE = """\
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 16384.0
Epoch 0 step 100 loss 2.81
"""


def test_a_logged_unexpected_nan_result_is_numbers_not_the_collective() -> None:
    diagnosis = diagnose_text("logs/job.log", RERUN_LOGGED)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert "Unexpected result nan on rank 6" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [6]


def test_a_raised_unexpected_inf_result_is_numbers_not_the_collective() -> None:
    diagnosis = diagnose_text("logs/job.log", RERUN_RAISED)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert "Unexpected result inf" in diagnosis.first_error.text


def test_a_skipped_update_for_a_nan_grad_norm_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train.log", GRAD_NORM_SKIPPED)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2


def test_a_loss_scale_below_one_is_the_collapse() -> None:
    diagnosis = diagnose_text("logs/train.log", SCALE_COLLAPSED)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("loss scale to 0.5")


def test_routine_loss_scale_halvings_are_no_error() -> None:
    diagnosis = diagnose_text("logs/train.log", SCALE_ROUTINE)
    assert diagnosis.first_error is None
