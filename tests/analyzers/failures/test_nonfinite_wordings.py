"""Other wordings of a run whose numbers went non-finite.

Megatron's rerun state machine reports a NaN gradient norm as an "unexpected result" and
quotes the data-parallel collective the check guards; no collective failed. A trainer that
checks the gradient norm itself warns and skips the update. apex's loss scaler has no floor:
a scale pushed below 1 is the collapse DeepSpeed reports as "already at minimum", while one
routine halving is not an error (docs/labelling.md#numbers-that-went-non-finite).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

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
    assert_reads(diagnosis, "other", first_error="Unexpected result nan on rank 6")
    assert diagnosis.culprit_ranks == [6]


def test_a_raised_unexpected_inf_result_is_numbers_not_the_collective() -> None:
    diagnosis = diagnose_text("logs/job.log", RERUN_RAISED)
    assert_reads(diagnosis, "other", first_error="Unexpected result inf")


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


# fairseq's fp16 optimizer logs each halving itself; older releases at WARNING after a summary
# line, newer ones as an INFO note. Values are ours.
FAIRSEQ_SCALE_WARNINGS = """\
| epoch 012 | loss 5.912 | nll_loss 4.401 | ppl 21.13 | wps 98211 | ups 0.3 | wpb 301772 | bsz 9833 | num_updates 4410 | lr 0.000512 | gnorm 0.412 | clip 0% | oom 0 | loss_scale 2.000 | wall 9120 | train_wall 8803
| WARNING: overflow detected, setting loss scale to: 1.0
| WARNING: overflow detected, setting loss scale to: 0.5
| WARNING: overflow detected, setting loss scale to: 0.25
"""

FAIRSEQ_SCALE_NOTES = """\
2021-06-02 17:31:50 | INFO | train_inner | epoch 004:    120 / 903 loss=7.91, nll_loss=6.85, ppl=115.3, wps=40211.2, ups=0.09, wpb=447120, bsz=15102.4, num_updates=2830, lr=0.0003, gnorm=88.412, loss_scale=0.001, train_wall=1301, wall=31277
2021-06-02 17:40:12 | INFO | fairseq.trainer | NOTE: overflow detected, setting loss scale to: 0.00048828125
2021-06-02 17:44:59 | INFO | fairseq.trainer | NOTE: overflow detected, setting loss scale to: 0.000244140625
"""

FAIRSEQ_SCALE_ROUTINE = """\
2021-06-02 09:02:41 | INFO | fairseq.trainer | NOTE: overflow detected, setting loss scale to: 64.0
2021-06-02 09:03:12 | INFO | train_inner | epoch 001:    100 / 903 loss=11.02, nll_loss=10.9, ppl=1911.7, wps=41002.3, ups=0.09, wpb=447120, bsz=15102.4, num_updates=100, lr=1.25e-05, gnorm=2.41, loss_scale=64, train_wall=1290, wall=1311
"""


def test_fairseqs_scale_warning_below_one_is_the_collapse() -> None:
    diagnosis = diagnose_text("logs/train.log", FAIRSEQ_SCALE_WARNINGS)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("setting loss scale to: 0.5")


def test_fairseqs_scale_note_at_info_below_one_is_the_collapse() -> None:
    diagnosis = diagnose_text("logs/train.log", FAIRSEQ_SCALE_NOTES)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("setting loss scale to: 0.00048828125")


def test_fairseqs_routine_scale_note_is_no_error() -> None:
    diagnosis = diagnose_text("logs/train.log", FAIRSEQ_SCALE_ROUTINE)
    assert diagnosis.first_error is None


# torch's sampler refuses probabilities that went inf/NaN on one rank of a generate loop.
SAMPLER_REFUSED = """\
2026-12-04 20:25:10,101 [rank1] INFO decode step 0 passed
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/job/infer.py", line 231, in sample
[rank1]:     return torch.multinomial(probs, 1)[0]
[rank1]: RuntimeError: probability tensor contains either `inf`, `nan` or element < 0
"""

# A local gradient-norm check before the gradient all_reduce, asked to raise.
CLIP_REFUSED = """\
[rank2]:   File "/work/job/train.py", line 88, in step
[rank2]:     torch.nn.utils.clip_grad_norm_([w], max_norm=1.0, error_if_nonfinite=True)
[rank2]: RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`
"""

# A model's own NaN guard raises Python's floating-point exception.
OWN_GUARD = """\
Traceback (most recent call last):
  File "/work/job/model.py", line 140, in attention
    raise FloatingPointError(f"non-finite activations in attention output of layer {i}")
FloatingPointError: non-finite activations in attention output of layer 0: 320 values
"""


def test_a_sampler_refusing_nonfinite_probabilities_is_numbers_on_that_rank() -> None:
    diagnosis = diagnose_text("job/log_1.log", SAMPLER_REFUSED)
    assert diagnosis.category == "other"
    assert any(e.rule == "num.nonfinite_refused_by_check" for e in diagnosis.evidence)
    assert diagnosis.culprit_ranks == [1]


def test_a_gradient_clip_refusing_a_nonfinite_norm_is_numbers_on_that_rank() -> None:
    diagnosis = diagnose_text("job/log_2.log", CLIP_REFUSED)
    assert diagnosis.category == "other"
    assert any(e.rule == "num.nonfinite_refused_by_check" for e in diagnosis.evidence)
    assert diagnosis.culprit_ranks == [2]


def test_a_models_own_floating_point_guard_is_numbers() -> None:
    diagnosis = diagnose_text("job/log_0.log", OWN_GUARD)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("FloatingPointError: non-finite")
    assert any(e.rule == "num.nonfinite_refused_by_check" for e in diagnosis.evidence)


# A diffusion fine-tuning loop prints its loss only in the progress bar; the fp16 scaler halves
# its scale on every step around it, and the log stops without an error line.
PROGRESS_BAR_NAN = """\
[2026-03-02 08:40:11,204] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768
Steps:   0%|          | 1/3000 [00:11<9:21:40, 11.24s/it, lr=2e-05, step_loss=nan, data_s=1.90][2026-03-02 08:40:16,877] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384
Steps:   0%|          | 2/3000 [00:16<6:55:02,  8.31s/it, lr=2e-05, step_loss=nan, data_s=0.07]
"""

# Counterexample: a finite loss in the same bar and a field that only has "nan" in its name.
PROGRESS_BAR_FINITE = """\
Epoch 1:  12%|█▏        | 120/1000 [00:40<04:53,  3.00it/s, loss=0.734, nan_steps=0, v_num=3]
Epoch 1:  13%|█▎        | 130/1000 [00:43<04:50,  3.00it/s, loss=0.729, nan_steps=0, v_num=3]
"""


def test_a_progress_bar_with_a_nan_loss_is_numbers_not_a_stall() -> None:
    diagnosis = diagnose_text("logs/train.log", PROGRESS_BAR_NAN)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert "1/3000" in diagnosis.first_error.text
    assert "step_loss=nan" in diagnosis.first_error.text


def test_a_progress_bar_with_finite_numbers_is_no_error() -> None:
    diagnosis = diagnose_text("logs/train.log", PROGRESS_BAR_FINITE)
    assert diagnosis.first_error is None or "loss=0.7" not in diagnosis.first_error.text


# A detection trainer's text logger (mmcv style, at INFO) prints one line per task head; the
# loss goes nan at one iteration and stays so, and the log never prints an error line.
TEXT_LOGGER_NAN = """\
2026-04-11 06:20:14,118 - INFO - Epoch [3/24][2200/9000]\tlr: 0.00020, eta: 2 days, 1:02:11, time: 1.412, data_time: 0.041, memory: 9120
2026-04-11 06:20:14,118 - INFO - task : ['vehicle'], loss: 1.8841, hm_loss: 1.1023, loc_loss: 1.9514, num_positive: 33.2000
2026-04-11 06:20:28,640 - INFO - Epoch [3/24][2210/9000]\tlr: 0.00020, eta: 2 days, 1:01:57, time: 1.452, data_time: 0.039, memory: 9120
2026-04-11 06:20:28,640 - INFO - task : ['vehicle'], loss: nan, hm_loss: nan, loc_loss: nan, num_positive: 29.8000
2026-04-11 06:20:43,207 - INFO - task : ['vehicle'], loss: nan, hm_loss: nan, loc_loss: nan, num_positive: 31.0000
"""

# Counterexample: the same logger with finite numbers throughout.
TEXT_LOGGER_FINITE = """\
2026-04-11 06:20:14,118 - INFO - task : ['vehicle'], loss: 1.8841, hm_loss: 1.1023, loc_loss: 1.9514, num_positive: 33.2000
2026-04-11 06:20:28,640 - INFO - task : ['vehicle'], loss: 1.8702, hm_loss: 1.0911, loc_loss: 1.9480, num_positive: 29.8000
"""

# A loguru trainer on rank 0 writes its fields between bars, the key in brackets.
BRACKETED_LOSS_NAN = """\
2026-04-11 07:01:10.412 | INFO     | trainer:log_step:140 - [R0] | E2 iter[ 30/ 40] | [Loss] 812.5521 | [step]    70 |
2026-04-11 07:01:31.877 | INFO     | trainer:log_step:140 - [R0] | E3 iter[ 30/ 40] | [Loss] nan | [step]   110 |
2026-04-11 07:01:53.009 | INFO     | trainer:log_step:140 - [R0] | E4 iter[ 30/ 40] | [Loss] nan | [step]   150 |
"""

# A self-supervised run's JSON-lines stats file: json.dumps writes the bare NaN literal.
JSON_STATS_NAN = """\
{"epoch": 41, "step": 90210, "loss": 11.904, "time": 20411, "lr": 0.92}
{"epoch": 41, "step": 90252, "loss": NaN, "time": 20472, "lr": 0.92}
{"epoch": 41, "step": 90293, "loss": 31.77, "time": 20533, "lr": 0.92}
"""

# Counterexample: finite stats and a counter whose name only holds "nan".
JSON_STATS_FINITE = """\
{"epoch": 41, "step": 90210, "loss": 11.904, "nan_steps": 0, "lr": 0.92}
{"epoch": 41, "step": 90252, "loss": 11.871, "nan_steps": 0, "lr": 0.92}
"""

# A preference trainer's metrics dict: the policy's log-probabilities went NaN, the loss reads 0.0.
PREFERENCE_DICT_NAN = """\
{'loss': 0.6931, 'rewards/chosen': 0.0, 'rewards/rejected': 0.0, 'logps/chosen': -88.1, 'logps/rejected': -120.4, 'epoch': 0.0}
{'loss': 0.0, 'rewards/chosen': nan, 'rewards/rejected': nan, 'logps/chosen': nan, 'logps/rejected': nan, 'logits/chosen': nan, 'epoch': 0.01}
"""


def test_a_text_logger_line_with_a_nan_loss_is_numbers_not_a_stall() -> None:
    diagnosis = diagnose_text("work_dirs/20260411_061002.log", TEXT_LOGGER_NAN)
    assert_reads(
        diagnosis, "other", first_error="06:20:28,640 - INFO - task : ['vehicle'], loss: nan"
    )
    assert any(e.rule == "num.logged_metric_nonfinite" for e in diagnosis.evidence)


def test_a_text_logger_with_finite_losses_is_no_error() -> None:
    diagnosis = diagnose_text("work_dirs/20260411_061002.log", TEXT_LOGGER_FINITE)
    assert diagnosis.first_error is None


def test_a_bracketed_nan_loss_is_the_first_error() -> None:
    diagnosis = diagnose_text("exp/train.log", BRACKETED_LOSS_NAN)
    assert_reads(diagnosis, "other", first_error="E3 iter[ 30/ 40] | [Loss] nan")


def test_a_json_stats_line_with_a_nan_loss_is_the_first_error() -> None:
    diagnosis = diagnose_text("checkpoints/stats.txt", JSON_STATS_NAN)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert '"step": 90252, "loss": NaN' in diagnosis.first_error.text


def test_json_stats_with_finite_numbers_are_no_error() -> None:
    diagnosis = diagnose_text("checkpoints/stats.txt", JSON_STATS_FINITE)
    assert diagnosis.first_error is None


def test_nan_log_probabilities_of_a_preference_trainer_are_the_first_error() -> None:
    diagnosis = diagnose_text("logs/dpo.log", PREFERENCE_DICT_NAN)
    assert_reads(diagnosis, "other", first_error="'logps/chosen': nan")


# A policy-gradient worker builds its action distribution from logits that went NaN;
# torch.distributions' argument check refuses them (the tensor follows on its own lines).
DISTRIBUTION_NAN = """\
[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/distributions/categorical.py", line 72, in __init__
[rank2]:     super().__init__(batch_shape, validate_args=validate_args)
[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/distributions/distribution.py", line 71, in __init__
[rank2]:     raise ValueError(
[rank2]: ValueError: Expected parameter logits (Tensor of shape (1024, 9)) of distribution Categorical(logits: torch.Size([1024, 9])) to satisfy the constraint IndependentConstraint(Real(), 1), but found invalid values:
[rank2]: tensor([[nan, nan, nan,  ..., nan, nan, nan],
[rank2]:         [nan, nan, nan,  ..., nan, nan, nan]], device='cuda:2',
[rank2]:        grad_fn=<SubBackward0>)
"""


def test_a_distribution_refusing_nan_parameters_is_numbers_on_that_rank() -> None:
    diagnosis = diagnose_text("logs/rank2.log", DISTRIBUTION_NAN)
    assert_reads(diagnosis, "other", first_error="Expected parameter logits")
    assert any(e.rule == "num.distribution_invalid_parameter" for e in diagnosis.evidence)
    assert "shape_mismatch" not in {alt.category for alt in diagnosis.alternatives}


# An older ZeRO stage at its loss-scale floor of 1: every step overflows and is skipped, and the
# run keeps counting steps without raising.
SCALE_STUCK_AT_ONE = """\
  1%|          | 212/30000 [01:31<3:34:10,  2.32it/s][2026-04-11 08:02:10,114] [INFO] [stage2.py:1702:step] [deepscale] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 2, reducing to 1
  1%|          | 213/30000 [01:31<3:34:02,  2.32it/s][2026-04-11 08:02:10,541] [INFO] [stage2.py:1702:step] [deepscale] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
  1%|          | 214/30000 [01:32<3:33:55,  2.32it/s][2026-04-11 08:02:10,969] [INFO] [stage2.py:1702:step] [deepscale] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
"""


def test_a_loss_scale_stuck_at_its_floor_of_one_is_the_collapse() -> None:
    diagnosis = diagnose_text("logs/train.log", SCALE_STUCK_AT_ONE)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert "08:02:10,541" in diagnosis.first_error.text
    assert "Attempted loss scale: 1, reducing to 1" in diagnosis.first_error.text


# A kernel that computed garbage and then faulted: the device's report below the nan line is why
# the numbers went bad, and it keeps the label.
TEXT_LOGGER_NAN_THEN_DEVICE = """\
2026-04-11 06:20:14,118 - INFO - task : ['vehicle'], loss: 1.8841, hm_loss: 1.1023, num_positive: 33.2000
2026-04-11 06:20:28,640 - INFO - task : ['vehicle'], loss: nan, hm_loss: nan, num_positive: 29.8000
RuntimeError: CUDA error: an illegal memory access was encountered
"""


def test_a_device_fault_below_a_nan_loss_line_keeps_the_label() -> None:
    diagnosis = diagnose_text("work_dirs/20260411_061002.log", TEXT_LOGGER_NAN_THEN_DEVICE)
    assert_reads(diagnosis, "device_fault", first_error="illegal memory access")


# A fine-tuning framework's JSON-lines log: the gradient norm goes NaN while the loss is finite.
JSON_LINES_GRAD_NORM_NAN = """\
{"loss": 1.0822, "acc": 0.71, "grad_norm": 2.9031, "learning_rate": 2e-05, "global_step/max_steps": "610/4000"}
{"loss": 1.0467, "acc": 0.72, "grad_norm": 3.1184, "learning_rate": 2e-05, "global_step/max_steps": "620/4000"}
{"loss": 2.6610, "acc": 0.29, "grad_norm": NaN, "learning_rate": 2e-05, "global_step/max_steps": "630/4000"}
"""

# Counterexample: finite gradient norms and a counter whose name only holds "nan".
JSON_LINES_GRAD_NORM_FINITE = """\
{"loss": 1.0822, "grad_norm": 2.9031, "grad_norm_nan_count": 0, "global_step/max_steps": "610/4000"}
{"loss": 1.0467, "grad_norm": 3.1184, "grad_norm_nan_count": 0, "global_step/max_steps": "620/4000"}
"""


def test_a_json_lines_nan_grad_norm_is_the_first_error() -> None:
    diagnosis = diagnose_text("output/logging.jsonl", JSON_LINES_GRAD_NORM_NAN)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert '"grad_norm": NaN' in diagnosis.first_error.text
    assert any(e.rule == "num.logged_metric_nonfinite" for e in diagnosis.evidence)


def test_json_lines_with_finite_grad_norms_are_no_error() -> None:
    diagnosis = diagnose_text("output/logging.jsonl", JSON_LINES_GRAD_NORM_FINITE)
    assert diagnosis.first_error is None


# Anomaly mode's warning with the forward traceback, the paste cut before the raise that follows.
ANOMALY_WARNING_ONLY = """\
[rank1]: epoch 7 iter 420/900 loss: 0.8121 grad_total_norm: 3.0917
[rank1]: /opt/conda/lib/python3.10/site-packages/torch/autograd/graph.py:744: UserWarning: Error detected in SqrtBackward0. Traceback of forward call that caused the error:
[rank1]:   File "train.py", line 211, in <module>
[rank1]:     main()
[rank1]:   File "train.py", line 144, in train_one_epoch
[rank1]:     loss = criterion(outputs, targets)
[rank1]:   File "/workspace/proj/losses.py", line 58, in forward
[rank1]:     dist = torch.sqrt(((a - b) ** 2).sum(-1))
"""

# The same warning followed by anomaly mode's raise: the raise is the first error.
ANOMALY_WARNING_THEN_RAISE = (
    ANOMALY_WARNING_ONLY
    + """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "train.py", line 211, in <module>
[rank1]:     loss.backward()
[rank1]: RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.
"""
)


def test_anomaly_modes_warning_alone_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train_rank1.log", ANOMALY_WARNING_ONLY)
    assert_reads(diagnosis, "other", first_error="UserWarning: Error detected in SqrtBackward0.")
    assert any(e.rule == "num.anomaly_warning_without_raise" for e in diagnosis.evidence)


def test_anomaly_modes_raise_below_its_warning_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train_rank1.log", ANOMALY_WARNING_THEN_RAISE)
    assert_reads(diagnosis, "other", first_error="returned nan values in its 0th output")
