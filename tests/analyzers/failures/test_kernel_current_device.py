"""A CUDA kernel that refuses operands which are not on the thread's current device.

Some kernels check their operands themselves and word it as a demand, naming no device. It is
the same host-side refusal as torch's mixed-device check and is read like two cards of one
accelerator: the op, with the launch's placement first beside it.
docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

REPLICA_LOOKUP = """\
Traceback (most recent call last):
  File "/srv/retriever/train.py", line 88, in <module>
    main()
  File "/srv/retriever/.venv/lib/python3.9/site-packages/torch/nn/parallel/parallel_apply.py", line 61, in _worker
    output = module(*input, **kwargs)
  File "/srv/retriever/.venv/lib/python3.9/site-packages/torch/nn/functional.py", line 2044, in embedding
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
RuntimeError: Input, output and indices must be on the current device
"""


def test_a_kernels_current_device_demand_is_the_ops_refusal() -> None:
    diagnosis = diagnose_text("train.log", REPLICA_LOOKUP)
    assert_reads(
        diagnosis,
        "operator",
        first_error="must be on the current device",
        rule="op.kernel_not_on_current_device",
    )
    alternatives = alternative_labels(diagnosis)
    assert alternatives
    assert alternatives[0] == "config"


def test_moving_tensors_to_the_current_device_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "train.log", "INFO moving the batch so that inputs and labels are on the current device\n"
    )
    assert "op.kernel_not_on_current_device" not in rules_of(diagnosis)
