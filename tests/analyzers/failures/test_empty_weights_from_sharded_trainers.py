"""A weight that arrives with no elements came from a shard nobody gathered.

docs/labelling.md#a-weight-that-arrives-empty-from-a-sharded-trainer: under ZeRO-3 (and FSDP
between its gathers) each rank holds an empty placeholder where a parameter's full tensor
would be. A trainer that hands its weights to a colocated generation engine, or saves a state
dict, without gathering them first passes that placeholder on, and the loader on the other
side refuses a size of 0. The shapes differ, but nothing about the model's shape is wrong:
the sharding setup handed out what it should have gathered, so the label is `config`, with
`weight_load` beside it, and the refusal is the first error. Two sizes that are both real keep
the plain size-mismatch reading.

Paths, names, ranks and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A GRPO trainer under ZeRO-3 pushes its state dict into the engine that generates for it.
ENGINE_GETS_EMPTY_WEIGHT = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/rl/grpo_step.py", line 212, in sync_to_engine
[rank0]:     engine_model.load_weights(weights.items())
[rank0]:   File "/opt/env/lib/python3.11/site-packages/vllm/model_executor/models/qwen2.py", line 480, in load_weights
[rank0]:     weight_loader(param, loaded_weight)
[rank0]:   File "/opt/env/lib/python3.11/site-packages/vllm/model_executor/model_loader/weight_utils.py", line 530, in default_weight_loader
[rank0]:     assert param.size() == loaded_weight.size(), (
[rank0]: AssertionError: Attempted to load weight (torch.Size([0])) into parameter (torch.Size([896, 4864]))
"""

# A checkpoint written under ZeRO-3 without gathering, loaded back into a plain model.
CHECKPOINT_OF_PLACEHOLDERS = """\
Traceback (most recent call last):
  File "/work/eval/load_policy.py", line 30, in <module>
    model.load_state_dict(state)
RuntimeError: Error(s) in loading state_dict for PolicyModel:
	size mismatch for layers.3.mlp.up_proj.weight: copying a param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4864, 896]).
"""

# Two real sizes that differ: a checkpoint of another model width.
OTHER_WIDTH = """\
[rank0]: AssertionError: Attempted to load weight (torch.Size([1024, 896])) into parameter (torch.Size([896, 896]))
"""


def test_an_empty_weight_handed_to_an_engine_is_the_sharding_setup() -> None:
    diagnosis = diagnose_text("trainer.log", ENGINE_GETS_EMPTY_WEIGHT)
    assert_reads(
        diagnosis,
        "config",
        first_error="Attempted to load weight (torch.Size([0]))",
        beside=("weight_load",),
    )


def test_a_checkpoint_of_empty_placeholders_is_the_sharding_setup() -> None:
    diagnosis = diagnose_text("eval.log", CHECKPOINT_OF_PLACEHOLDERS)
    assert_reads(
        diagnosis,
        "config",
        first_error="copying a param with shape torch.Size([0])",
        beside=("weight_load",),
    )


def test_two_real_sizes_keep_the_size_mismatch_reading() -> None:
    diagnosis = diagnose_text("trainer.log", OTHER_WIDTH)
    assert_reads(diagnosis, "weight_load", first_error="Attempted to load weight")
