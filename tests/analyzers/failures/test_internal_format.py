"""An operator that refuses a tensor kept in an NPU internal format.

docs/labelling.md#operator-installation-or-platform-limit: torch_npu keeps some tensors in a
private device format; an op whose NPU implementation takes only base formats refuses one with
`Current operator X do not support internal format.` That is the op's limit (`operator`), the
refusal is the first error, and turning internal formats off is the `config` alternative.

The fixture follows a detection trainer's gradient clipping on NPU; paths and names are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CLIP_ON_INTERNAL_FORMAT = """\
Epoch 1/50  box_loss 1.214  cls_loss 2.031  dfl_loss 1.102  Instances 37  Size 640
Traceback (most recent call last):
  File "/srv/det/train_npu.py", line 21, in <module>
    runner.fit()
  File "/srv/det/detkit/engine/runner.py", line 388, in fit
    self.step_optimizer()
  File "/srv/det/detkit/engine/runner.py", line 512, in step_optimizer
    torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=5.0)
  File "/opt/py311/lib/python3.11/site-packages/torch/nn/utils/clip_grad.py", line 61, in clip_grad_norm_
    norms.extend(torch._foreach_norm(device_grads, norm_type))
RuntimeError: Current operator _foreach_norm do not support internal format. 
[ERROR] 2026-02-11-14:03:27 (PID:51873, Device:0, RankID:-1) ERR01007 OPS feature not supported
"""


def test_an_op_refusing_an_internal_format_is_the_operator_with_config_beside_it() -> None:
    diagnosis = diagnose_text("train.log", CLIP_ON_INTERNAL_FORMAT)
    assert_reads(
        diagnosis,
        "operator",
        first_error="_foreach_norm do not support internal format",
        beside=("config",),
    )


def test_a_setting_that_mentions_internal_formats_is_no_refusal() -> None:
    text = (
        "INFO config: allow_internal_format=False, operators receive ND tensors\n"
        "Epoch 1/50  box_loss 1.214  cls_loss 2.031  dfl_loss 1.102  Instances 37  Size 640\n"
        "Epoch 2/50  box_loss 1.187  cls_loss 1.954  dfl_loss 1.090  Instances 41  Size 640\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None
    assert diagnosis.category != "operator"


ATTENTION_OUTPUT_IS_INPUT = """\
[INFO:serve] loading vision tower in float32 on npu:0
Traceback (most recent call last):
  File "/srv/vlm/serve.py", line 88, in handle
    out = model.generate(**batch)
  File "/srv/vlm/vlm/vision.py", line 141, in forward
    attn = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
RuntimeError: can not cast format when output is input
[ERROR] 2026-02-11-14:05:09 (PID:51902, Device:0, RankID:-1) ERR01007 OPS feature not supported
[INFO:serve] request 17 failed, 0 tokens generated
"""


def test_an_output_that_is_an_input_refused_a_format_cast_is_the_operator() -> None:
    diagnosis = diagnose_text("serve.log", ATTENTION_OUTPUT_IS_INPUT)
    assert_reads(
        diagnosis,
        "operator",
        first_error="can not cast format when output is input",
        beside=("config",),
    )
    assert diagnosis.confidence >= 0.5


def test_a_skipped_format_cast_is_no_refusal() -> None:
    text = (
        "INFO npu_format_cast: cast format of weight to FRACTAL_NZ when output is input: skipped\n"
        "INFO step 1 loss 2.113\n"
        "INFO step 2 loss 2.087\n"
    )
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is None
