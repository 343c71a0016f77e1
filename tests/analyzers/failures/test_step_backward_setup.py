"""How a training step calls backward and unscales its gradients.

docs/labelling.md#a-step-that-runs-backward-twice: reentrant activation checkpointing refuses a
backward for some inputs only (`torch.autograd.grad`, `backward(inputs=...)`), and an AMP grad
scaler refuses a second unscale before its update (an accumulation loop that unscales or clips
on every micro-batch). Both are the step's setup, `config`, with `other` beside it, and the
refusal is the first error. The fixtures are in the shapes torch prints (paths and numbers are
ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A gradient-penalty step through reentrant checkpointed blocks on one rank of a DDP job.
PARTIAL_BACKWARD = """\
[rank0]:   File "/work/gan/train.py", line 141, in penalty
[rank0]:     grads = torch.autograd.grad(outputs=scores.sum(), inputs=images, create_graph=True)
[rank0]:   File "/opt/venv/lib/python3.10/site-packages/torch/utils/checkpoint.py", line 254, in backward
[rank0]:     raise RuntimeError(
[rank0]: RuntimeError: Checkpointing is not compatible with .grad() or when an `inputs` parameter is passed to .backward(). Please use .backward() and do not pass its `inputs` argument.
"""

# Older releases assert it.
PARTIAL_BACKWARD_OLD = """\
  File "/usr/lib/python3.7/site-packages/torch/utils/checkpoint.py", line 75, in backward
    "Checkpointing is not compatible with .grad(), please use .backward() if possible")
AssertionError: Checkpointing is not compatible with .grad(), please use .backward() if possible
"""


def test_a_partial_backward_through_reentrant_checkpointing_is_the_step_setup() -> None:
    for text in (PARTIAL_BACKWARD, PARTIAL_BACKWARD_OLD):
        diagnosis = diagnose_text("train.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error="Checkpointing is not compatible with .grad()",
            rule="cfg.checkpoint_reentrant_partial_backward",
            beside=("other",),
        )


def test_a_note_about_checkpointing_and_grad_is_no_refusal() -> None:
    text = "INFO gradient checkpointing on (use_reentrant=False); penalty gradients via .grad()\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.checkpoint_reentrant_partial_backward" not in rules_of(diagnosis)


# Two data-parallel processes of an accumulation loop with AMP fail alike on micro-batch 2.
UNSCALED_TWICE = """\
[2025-05-02 10:14:07 pretrain] (train.py 201): INFO Train: [0/100][40/2502]	lr 0.000100	loss 0.5133 (0.5190)	grad_norm 0.3120 (0.3120)
Traceback (most recent call last):
  File "train.py", line 188, in train_one_epoch
    scaler.unscale_(optimizer)
  File "/opt/conda/lib/python3.9/site-packages/torch/cuda/amp/grad_scaler.py", line 284, in unscale_
    raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
RuntimeError: unscale_() has already been called on this optimizer since the last update().
Traceback (most recent call last):
  File "train.py", line 188, in train_one_epoch
    scaler.unscale_(optimizer)
  File "/opt/conda/lib/python3.9/site-packages/torch/cuda/amp/grad_scaler.py", line 284, in unscale_
    raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
RuntimeError: unscale_() has already been called on this optimizer since the last update().
"""


def test_a_second_unscale_before_the_update_is_the_loop_setup() -> None:
    diagnosis = diagnose_text("train.log", UNSCALED_TWICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="unscale_() has already been called",
        rule="cfg.grad_scaler_unscaled_twice",
        beside=("other",),
    )


def test_a_progress_line_about_unscaling_is_no_failure() -> None:
    text = "step 120: gradients unscaled before clipping (max_norm=1.0), scaler.update() done\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None
