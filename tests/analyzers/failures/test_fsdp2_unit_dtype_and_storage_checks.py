"""FSDP2's own checks on what one sharded unit holds, and a view its storage cannot hold.

Two classes: a unit whose parameters or gradients come in two dtypes
(docs/labelling.md#a-sharded-unit-whose-tensors-disagree-on-dtype), and torch refusing a tensor
view over a storage too small for it, as a freed unsharded buffer or an unpadded all-gather
output leaves it (docs/labelling.md#a-tensor-view-its-storage-is-too-small-for). The excerpts
follow the real shapes (torchrun's rank prefixes, Python tracebacks) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A unit of a model that keeps its router weights in fp32 beside bf16 experts.
ORIGINAL_DTYPES = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/train.py", line 88, in <module>
[rank1]:     loss = model(batch).loss
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py", line 140, in _lazy_init
[rank1]:     state._fsdp_param_group.lazy_init()
[rank1]: AssertionError: FSDP expects uniform original parameter dtype but got {torch.float32, torch.bfloat16}
"""

# Gradients accumulated in fp32 over no-sync steps meet fresh bf16 ones in one reduce-scatter.
GRADIENT_DTYPES = """\
[rank6]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py", line 402, in foreach_reduce
[rank6]:     raise AssertionError(
[rank6]: AssertionError: FSDP reduce-scatter expects uniform gradient dtype but got {torch.bfloat16, torch.float32}
"""

# A helper's progress line that talks about grouping by dtype.
GROUPING_NOTE = """\
INFO sharding by dtype so that each FSDP unit expects uniform parameter dtype: 4 units
INFO step 1 loss 3.1
"""

# A module grouped in one fully_shard call is called again after its unit resharded.
FREED_STORAGE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/mtp_train.py", line 61, in <module>
[rank0]:     aux = model.head(hidden)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py", line 125, in forward
[rank0]:     return F.linear(input, self.weight, self.bias)
[rank0]: RuntimeError: setStorage: sizes [48, 384], strides [384, 1], storage offset 0, and itemsize 4 requiring a storage size of 73728 are out of bounds for storage of size 0
"""

# A line that names the call and refuses nothing.
STORAGE_NOTE = """\
DEBUG fsdp: setStorage: sizes [48, 384] fit storage of size 73728
INFO step 3 loss 2.7
"""


def test_a_unit_of_two_stored_dtypes_is_a_config_refusal() -> None:
    diagnosis = diagnose_text("train.log", ORIGINAL_DTYPES)
    assert_reads(
        diagnosis,
        "config",
        first_error="expects uniform original parameter dtype",
        rule="cfg.training_stack_settings",
        beside=("other",),
    )


def test_gradients_of_two_dtypes_in_one_reduce_scatter_are_the_same_refusal() -> None:
    diagnosis = diagnose_text("train.log", GRADIENT_DTYPES)
    assert_reads(
        diagnosis,
        "config",
        first_error="reduce-scatter expects uniform gradient dtype",
        rule="cfg.training_stack_settings",
    )


def test_a_line_about_grouping_by_dtype_is_no_refusal() -> None:
    diagnosis = diagnose_text("train.log", GROUPING_NOTE)
    assert "cfg.training_stack_settings" not in rules_of(diagnosis)


def test_a_view_over_a_freed_storage_is_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", FREED_STORAGE)
    assert_reads(
        diagnosis,
        "other",
        first_error="out of bounds for storage of size 0",
        rule="other.tensor_view_storage_too_small",
        beside=("config",),
    )


def test_a_line_naming_set_storage_without_a_refusal_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", STORAGE_NOTE)
    assert "other.tensor_view_storage_too_small" not in rules_of(diagnosis)
