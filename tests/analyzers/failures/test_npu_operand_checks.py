"""torch_npu's own host check that an operand of an NPU kernel lives on the NPU.

The bindings name the operand (`Inplace tensor self must be NPU-Tensor.`, `inv_scale must be
NPU-Tensor`). Like torch_npu's `Expected NPU tensor` check, the line keeps the op's reading;
the usual reason is state a framework keeps on the host on a path tried only on CUDA (an
offloaded optimizer state, a loss scaler's scale), so `config` is offered first beside it and
the script's own placement (`other`) next. The fixtures are a ZeRO-3 step with CPU offload
and an AMP unscale step, with their own values. docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

OFFLOADED_OPTIMIZER_STEP = """\
[2024-06-03 14:12:08,511] [INFO] [stage3.py:2241:step] Stage 3 step with cpu offload enabled
Traceback (most recent call last):
  File "/srv/ft/train.py", line 88, in <module>
    trainer.train()
  File "/opt/py310/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2093, in step
    self._optimizer_step(sub_group_id)
  File "/opt/py310/lib/python3.10/site-packages/torch/optim/adamw.py", line 412, in _single_tensor_adamw
    exp_avg.lerp_(grad, 1 - beta1)
RuntimeError: Inplace tensor self must be NPU-Tensor.
[ERROR] 2024-06-03-14:12:08 (PID:90211, Device:1, RankID:1) ERR01002 OPS invalid parameter
"""

AMP_UNSCALE_STEP = """\
  File "/opt/py39/lib/python3.9/site-packages/torch/cuda/amp/grad_scaler.py", line 284, in unscale_
    optimizer_state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
RuntimeError: inv_scale must be NPU-Tensor
"""

SAME_DEVICE_SUMMARY = """\
Traceback (most recent call last):
  File "/srv/ft/eval.py", line 20, in <module>
    out = model(batch)
RuntimeError: Expected all tensors to be on the same device. Expected NPU tensor, please check whether the input tensor device is correct.
"""


def test_an_offloaded_state_written_in_place_names_the_operand() -> None:
    diagnosis = diagnose_text("train.log", OFFLOADED_OPTIMIZER_STEP)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Inplace tensor self must be NPU-Tensor",
        rule="op.npu_operand_off_device",
    )
    assert alternative_labels(diagnosis)[:1] == ["config"]
    assert "other" in alternative_labels(diagnosis)


def test_a_loss_scale_left_on_the_host_reads_the_same() -> None:
    diagnosis = diagnose_text("amp.log", AMP_UNSCALE_STEP)
    assert_reads(
        diagnosis, "operator", first_error="inv_scale must be NPU-Tensor", beside=("config",)
    )


def test_the_same_device_summary_keeps_its_own_rule() -> None:
    diagnosis = diagnose_text("eval.log", SAME_DEVICE_SUMMARY)
    assert diagnosis.category == "operator"
    assert "op.npu_operand_off_device" not in rules_of(diagnosis)
    assert "op.mixed_device_arguments" in rules_of(diagnosis)
