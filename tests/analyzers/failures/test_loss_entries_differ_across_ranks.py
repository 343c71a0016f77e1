"""OpenMMLab's trainers (mmdetection, mmsegmentation, mmrotate and the libraries built on
them) count the loss entries on every rank before they all-reduce each one, and stop with
`loss log variables are different across GPUs!` when the counts differ: a rank whose batch had
no annotations produced fewer losses. No collective ran and no layer failed by name; the ranks
drifted apart and the check noticed, as FSDP's optimizer-state check does. The fixtures are
written here with our own values. docs/labelling.md#loss-entries-that-differ-across-ranks
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "other.loss_entries_differ_across_ranks"

DETECTOR_TRAINING = """\
2024-03-02 11:20:14,402 - mmdet - INFO - Epoch [3][40/180]  lr: 2.000e-02, eta: 2:11:05, time: 0.912, data_time: 0.051, memory: 6120, loss_rpn_cls: 0.0412, loss_rpn_bbox: 0.0220, loss_cls: 0.3310, acc: 91.2012, loss_bbox: 0.2845, loss_mask: 0.3021, loss: 1.0108
Traceback (most recent call last):
  File "tools/train.py", line 244, in <module>
    main()
  File "/srv/env/lib/python3.8/site-packages/mmcv/parallel/distributed.py", line 59, in train_step
    output = self.module.train_step(*inputs[0], **kwargs[0])
  File "/srv/seg/segdet/models/detectors/base.py", line 248, in train_step
    loss, log_vars = self._parse_losses(losses)
  File "/srv/seg/segdet/models/detectors/base.py", line 209, in _parse_losses
    assert log_var_length == len(log_vars) * dist.get_world_size(), \\
AssertionError: loss log variables are different across GPUs!
rank 1 len(log_vars): 6 keys: loss_rpn_cls,loss_rpn_bbox,loss_cls,acc,loss_bbox,loss_mask
"""


def test_a_rank_with_fewer_losses_is_the_ranks_drifting_apart() -> None:
    diagnosis = diagnose_text("train.log", DETECTOR_TRAINING)
    assert_reads(
        diagnosis,
        "other",
        first_error="loss log variables are different across GPUs",
        rule=RULE,
        beside=["hccl"],
    )
    # a rule's reading, above the fallback's near-zero guess for an unknown sentence
    assert diagnosis.confidence > 0.2


def test_the_bare_assertion_line_reads_the_same() -> None:
    text = "[rank2]: AssertionError: loss log variables are different across GPUs!\n"
    diagnosis = diagnose_text("rank2.log", text)
    assert RULE in rules_of(diagnosis)
    assert diagnosis.category == "other"
    assert "hccl" in alternative_labels(diagnosis)


def test_a_log_line_about_loss_variables_refuses_nothing() -> None:
    text = "2024-03-02 11:20:14,402 - mmdet - INFO - loss log variables are the same across GPUs\n"
    assert RULE not in rules_of(diagnose_text("train.log", text))
