"""Refusals of big-model loading that name no shape and no key are still the loader's.

docs/labelling.md#config-driver_env-or-weight_load: a parameter copied while still on the meta
device is one the loader never filled; a device map that leaves parameters without a device is
accelerate's check before it spreads the model; transformers' `Unable to load weights from
pytorch checkpoint file` is a shard it could not read. All three are `weight_load` with
`config` beside them, and the line is the first error. An operator that has no kernel for the
meta device is not the meta-copy rule: nothing was being loaded, and it keeps its own reading.

Paths, names, ranks and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A two-node FSDP job: a rank of the second node copies a parameter its loader left on meta.
META_COPY_ON_SECOND_NODE = """\
[rank6]: Traceback (most recent call last):
[rank6]:   File "/srv/train/sft.py", line 88, in build_model
[rank6]:     model = AutoModelForCausalLM.from_pretrained(args.model_path, torch_dtype=torch.bfloat16)
[rank6]:   File "/opt/py/lib/python3.11/site-packages/transformers/modeling_utils.py", line 4120, in _load_pretrained_model
[rank6]:     set_module_tensor_to_device(model, name, device, value=param)
[rank6]:   File "/opt/py/lib/python3.11/site-packages/accelerate/utils/modeling.py", line 330, in set_module_tensor_to_device
[rank6]:     new_value = old_value.to(device)
[rank6]: NotImplementedError: Cannot copy out of meta tensor; no data!
"""

# The same refusal quoted in a report's text without its exception class.
META_COPY_QUOTED_ALONE = """\
Cannot copy out of meta tensor; no data!
"""

# Spreading a model over four GPUs with a hand-written map that forgot the output head.
DEVICE_MAP_GAP = """\
Traceback (most recent call last):
  File "/srv/infer/serve.py", line 41, in load
    model = dispatch_model(model, device_map=layout)
  File "/opt/py/lib/python3.11/site-packages/accelerate/big_modeling.py", line 351, in dispatch_model
    check_device_map(model, device_map)
ValueError: The device_map provided does not give any device for the following parameters: output_head.weight, output_head.bias
"""

# Every rank of a ZeRO-3 job reads the same shard; one finds it unreadable.
SHARD_UNREADABLE = """\
Loading checkpoint shards:  25%|██▌       | 1/4 [00:07<00:21,  7.12s/it]
[rank1]: OSError: Unable to load weights from pytorch checkpoint file for '/mnt/ckpt/demo-34b/pytorch_model-00002-of-00004.bin' at '/mnt/ckpt/demo-34b/pytorch_model-00002-of-00004.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set from_tf=True.
"""

# A shape probe run on meta tensors reaches an op with no meta kernel: no loading involved.
META_KERNEL_MISSING = """\
[rank0]: NotImplementedError: Could not run 'aten::_local_scalar_dense' with arguments from the 'Meta' backend.
"""


def test_a_meta_parameter_copied_during_loading_is_the_loaders_failure() -> None:
    diagnosis = diagnose_text("log_6.log", META_COPY_ON_SECOND_NODE)
    assert_reads(
        diagnosis, "weight_load", first_error="Cannot copy out of meta tensor", beside=("config",)
    )


def test_a_device_map_that_leaves_parameters_out_is_weight_load() -> None:
    diagnosis = diagnose_text("serve.log", DEVICE_MAP_GAP)
    assert_reads(
        diagnosis, "weight_load", first_error="does not give any device", beside=("config",)
    )


def test_an_unreadable_shard_is_weight_load_not_a_tensorflow_setting() -> None:
    diagnosis = diagnose_text("log_1.log", SHARD_UNREADABLE)
    assert_reads(
        diagnosis, "weight_load", first_error="Unable to load weights from pytorch checkpoint file"
    )


def test_an_op_without_a_meta_kernel_is_not_a_loading_failure() -> None:
    diagnosis = diagnose_text("log_0.log", META_KERNEL_MISSING)
    assert diagnosis.category != "weight_load"


def test_a_meta_copy_quoted_without_its_class_is_still_read() -> None:
    diagnosis = diagnose_text("report.txt", META_COPY_QUOTED_ALONE)
    assert_reads(diagnosis, "weight_load", first_error="Cannot copy out of meta tensor")
