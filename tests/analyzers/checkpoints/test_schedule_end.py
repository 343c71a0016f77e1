"""A trainer's metrics that show its learning-rate schedule ran to the end
(docs/labelling.md#a-success-line-that-was-not-the-end).

Hugging Face's Trainer logs a dict per logging step; with a decaying schedule the rate reaches
exactly 0 on the last optimizer step, at the whole epoch the run was asked for. A paste that
stops on that dict, without the run summary after it, shows a run that did all its steps:
`healthy`, no first error. The same dict mid-run (a positive rate, a fractional epoch) or at a
warm-up's first step (rate 0 at epoch 0.0x) is progress, and a log that stops there stopped
inside the run. The data preprocessor's `WARNING: tokenization mismatch ... (ignored)` is a
notice, never a cause. Excerpts follow the real shape with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

HEAD = """\
{'loss': 1.8812, 'learning_rate': 2.9996e-05, 'epoch': 0.04}
  1%|          | 1/96 [01:40<2:39:12, 100.55s/it]WARNING: tokenization mismatch: 188 vs. 190. #turn = 1. (ignored)
{'loss': 1.4402, 'learning_rate': 2.9985e-05, 'epoch': 0.08}
  2%|▏         | 2/96 [03:12<2:31:40, 96.81s/it]WARNING: tokenization mismatch: 201 vs. 203. #turn = 1. (ignored)
"""

SCHEDULE_END = (
    HEAD
    + """\
{'loss': 0.0121, 'grad_norm': 0.2188, 'learning_rate': 3.21e-08, 'epoch': 2.96}
 99%|█████████▉| 95/96 [2:31:10<01:31, 91.42s/it]WARNING: tokenization mismatch: 305 vs. 307. #turn = 1. (ignored)
{'loss': 0.0094, 'grad_norm': 0.1807, 'learning_rate': 0.0, 'epoch': 3.0}
"""
)

MID_RUN = (
    HEAD
    + """\
{'loss': 0.4113, 'learning_rate': 1.5002e-05, 'epoch': 1.5}
 50%|█████     | 48/96 [1:15:40<1:15:02, 93.80s/it]WARNING: tokenization mismatch: 240 vs. 242. #turn = 1. (ignored)
"""
)

WARMUP_START = """\
{'loss': 2.3317, 'learning_rate': 0.0, 'epoch': 0.02}
  1%|          | 1/96 [01:35<2:31:02, 95.40s/it]
"""

WHOLE_EPOCH_MID_RUN = (
    HEAD
    + """\
{'loss': 0.6021, 'learning_rate': 2.0001e-05, 'epoch': 1.0}
"""
)


def test_a_trainer_whose_rate_reached_zero_at_its_last_epoch_finished() -> None:
    diagnosis = diagnose_text("train.log", SCHEDULE_END)
    assert diagnosis.category == "healthy"
    assert diagnosis.first_error is None


def test_a_trainer_that_stops_mid_schedule_is_no_finished_run() -> None:
    for log in (MID_RUN, WHOLE_EPOCH_MID_RUN, WARMUP_START):
        diagnosis = diagnose_text("train.log", log)
        assert diagnosis.category == "hang"
        assert diagnosis.first_error is None
