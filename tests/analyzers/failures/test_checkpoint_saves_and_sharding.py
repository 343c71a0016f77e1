"""Checkpoint saves that the job's sharding or precision setup cannot serve.

docs/labelling.md#checkpoint-saves-the-sharding-setup-cannot-serve: a distributed optimizer whose
state is not the rank's slice of the gradient buffer, a sharded state dict with no (or several)
local shards on a rank, a weights-only checkpoint where the optimizer states are expected. Each
is an option that does not combine with the checkpoint path: `config`, with `other` beside it,
and the check is the first error. Beside them,
docs/labelling.md#an-optimizer-state-kept-under-another-optimizers-names: a saved optimizer state
looked up by another optimizer's names is `config` too, with `weight_load` beside it.

Fixtures are written in the shapes of Megatron's, torch's and Lightning's tracebacks, with
paths, names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

OPTIMIZER_SLICE = """\
[rank5]:   File "/work/Megatron-LM/megatron/core/optimizer/distrib_optimizer.py", line 1210, in sharded_state_dict
[rank5]:     param_state = self.sharded_param_state_dp_reshardable(
[rank5]:   File "/work/Megatron-LM/megatron/core/optimizer/distrib_optimizer.py", line 1601, in sharded_param_state_dp_reshardable
[rank5]:     assert tensors[key].shape == (gbuf_local_end - gbuf_local_start,), (
[rank5]: AssertionError: (torch.Size([]), 0, 33554432)
"""

# Counterexample: an assertion that compares two shapes is not the slice check.
TWO_SHAPES = """\
Traceback (most recent call last):
  File "/srv/model/check.py", line 12, in verify
    assert a.shape == b.shape, (a.shape, b.shape)
AssertionError: (torch.Size([4096, 1024]), torch.Size([1024, 4096]))
"""

ONE_LOCAL_SHARD = """\
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/torch/distributed/fsdp/_state_dict_utils.py", line 410, in _sharded_post_state_dict_hook
[rank1]:     return _common_unshard_post_state_dict_hook(
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/torch/distributed/_shard/sharded_tensor/api.py", line 701, in local_tensor
[rank1]:     raise NotImplementedError("Only single local shard is supported.")
[rank1]: NotImplementedError: Only single local shard is supported.
"""

WEIGHTS_ONLY_SAVE = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/lightning/pytorch/strategies/fsdp.py", line 590, in save_checkpoint
    {f"optimizer_{idx}": state for idx, state in enumerate(checkpoint.pop("optimizer_states"))}
KeyError: 'optimizer_states'
"""

# Counterexample: a missing key that is a parameter's path keeps the loader's reading.
MISSING_WEIGHT_KEY = """\
Traceback (most recent call last):
  File "/srv/serve/load.py", line 41, in load
    w = state["model.layers.3.mlp.down_proj.weight"]
KeyError: 'model.layers.3.mlp.down_proj.weight'
"""


def test_an_optimizer_state_that_is_not_the_ranks_slice_is_config() -> None:
    diagnosis = diagnose_text("rank5.log", OPTIMIZER_SLICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="(torch.Size([]), 0, 33554432)",
        rule="cfg.dist_optimizer_state_not_its_slice",
        beside=("other",),
    )


def test_an_assertion_quoting_two_shapes_is_not_the_slice_check() -> None:
    diagnosis = diagnose_text("check.log", TWO_SHAPES)
    assert "cfg.dist_optimizer_state_not_its_slice" not in rules_of(diagnosis)


def test_a_sharded_state_dict_without_one_local_shard_is_config() -> None:
    diagnosis = diagnose_text("rank1.log", ONE_LOCAL_SHARD)
    assert_reads(
        diagnosis,
        "config",
        first_error="Only single local shard is supported",
        rule="cfg.sharded_tensor_one_local_shard",
    )


def test_a_weights_only_checkpoint_in_a_sharded_save_is_config() -> None:
    diagnosis = diagnose_text("fit.log", WEIGHTS_ONLY_SAVE)
    assert_reads(
        diagnosis,
        "config",
        first_error="KeyError: 'optimizer_states'",
        rule="cfg.weights_only_checkpoint_lacks_state",
    )


def test_a_missing_parameter_key_is_not_the_weights_only_rule() -> None:
    diagnosis = diagnose_text("load.log", MISSING_WEIGHT_KEY)
    assert "cfg.weights_only_checkpoint_lacks_state" not in rules_of(diagnosis)
    assert diagnosis.category == "weight_load", diagnosis.root_cause


CONVERTER_STATE_KEY = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/checkpoint/ds_to_universal.py", line 149, in extract_zero_shards
    exp_avg=state_groups[param_group_id]["exp_avg"],
KeyError: 'exp_avg'
"""

# Counterexample: a parameter path whose last part resembles a state name is a missing weight.
PARAMETER_LIKE_STATE = """\
Traceback (most recent call last):
  File "/srv/serve/load.py", line 41, in load
    w = state["model.layers.2.exp_avg_proj.weight"]
KeyError: 'model.layers.2.exp_avg_proj.weight'
"""


def test_a_state_written_by_another_optimizer_is_config() -> None:
    diagnosis = diagnose_text("convert.log", CONVERTER_STATE_KEY)
    assert_reads(
        diagnosis,
        "config",
        first_error="KeyError: 'exp_avg'",
        rule="cfg.optimizer_state_key_of_another_optimizer",
        beside=("weight_load",),
    )


def test_a_parameter_path_like_a_state_name_is_not_the_optimizer_rule() -> None:
    diagnosis = diagnose_text("load.log", PARAMETER_LIKE_STATE)
    assert "cfg.optimizer_state_key_of_another_optimizer" not in rules_of(diagnosis)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
