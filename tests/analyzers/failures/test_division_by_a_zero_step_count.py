"""A ZeroDivisionError raised where a trainer divides by its own count of steps or batches.

docs/labelling.md#a-division-by-a-step-count-that-came-out-zero: trainers derive how many
optimizer steps an epoch holds from the data loader's length and the global batch, and later
divide by that count (`start_epoch = global_step // self.steps_per_epoch`, `avg = total /
len(train_loader)`). A data set smaller than the global batch (with the last short batch
dropped), or one left empty by the filters, makes the count 0, and the first such division ends
every rank with a bare `ZeroDivisionError`. The statement under the innermost frame says what
was divided by: the data and the batch settings do not fit, `config`, the ZeroDivisionError the
first error. The excerpts are made up in the trainers' usual layout.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STEPS_PER_EPOCH = """\
Steps per epoch: 0, epochs: 3, total steps: 0
Traceback (most recent call last):
  File "/work/rlkit/trainer/sft_trainer.py", line 512, in main
    run(config)
  File "/work/rlkit/trainer/sft_trainer.py", line 488, in fit
    first_epoch = resumed_step // self.steps_per_epoch
ZeroDivisionError: integer division or modulo by zero
"""

LOADER_LENGTH = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/home/lab/finetune/loop.py", line 140, in <module>
[rank2]:     train_one_epoch(model, loader)
[rank2]:   File "/home/lab/finetune/loop.py", line 97, in train_one_epoch
[rank2]:     mean_loss = running_loss / len(train_loader)
[rank2]: ZeroDivisionError: float division by zero
"""

# Counterexample: a division by a quantity of the model or the data values (a metric's
# denominator) says nothing of the run's settings; it keeps the unrecognised reading.
METRIC_DENOMINATOR = """\
Traceback (most recent call last):
  File "/home/lab/finetune/metrics.py", line 33, in precision
    return true_pos / (true_pos + false_pos)
ZeroDivisionError: division by zero
"""


def test_a_division_by_zero_steps_per_epoch_is_config() -> None:
    diagnosis = diagnose_text("train.log", STEPS_PER_EPOCH)
    assert_reads(
        diagnosis, "config", first_error="ZeroDivisionError: integer division or modulo by zero"
    )


def test_a_division_by_an_empty_loader_is_config() -> None:
    diagnosis = diagnose_text("rank2.log", LOADER_LENGTH)
    assert_reads(diagnosis, "config", first_error="ZeroDivisionError: float division by zero")


def test_a_metric_denominator_is_not_a_setting() -> None:
    diagnosis = diagnose_text("train.log", METRIC_DENOMINATOR)
    assert diagnosis.category != "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "ZeroDivisionError: division by zero" in diagnosis.first_error.text
