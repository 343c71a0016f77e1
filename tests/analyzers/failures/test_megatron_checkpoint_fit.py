"""Megatron checkpoints that do not fit the job reading them.

Megatron's loader compares the arguments a checkpoint was saved with against the job's and
refuses a different parallel size or model size. Megatron-Core's distributed checkpointing checks, before it reads or writes, that the shards every rank declares cover each
tensor and sharded object once. Converters and partition changers built on it stop there when
the layout or the release does not fit the checkpoint. Excerpts are in the shapes those tools
print (a bare logger line, a logging ERROR line, the exception under torchrun's rank prefix),
with keys, counts and paths of our own. Guide section:
docs/labelling.md#a-checkpoint-cut-for-another-number-of-ranks.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TOOLS = "/opt/nemo/examples/nlp/language_modeling"

# A partition changer that logs the check with no level, then dies in a traceback the paste cut.
BARE_LOGGER_THEN_CUT = f"""\
[NeMo I 2026-02-11 08:40:12 change_partitions:318] Writing pp rank 0 tp rank 3 to /ckpt/tp4
Invalid access pattern for ShardedTensor(key='model.decoder.final_norm.weight'): tensor([[0],
        [2],
        [1],
        [1]], dtype=torch.int32)
Traceback (most recent call last):
  File "{TOOLS}/change_partitions.py", line 1290, in <module>
    main()
  File "{TOOLS}/change_partitions.py", line 1244, in main
    offsets = split_partition(
  File "{TOOLS}/change_partitions.py", line 702, in split_partition
"""

# An exporter whose logging handler prints the check at ERROR with the objects it found.
LOGGED_MISSING_OBJECTS = """\
sharded_state_dict metadata loaded from the checkpoint: None
ERROR:megatron.core.dist_checkpointing.validation:Invalid access pattern: 24 ShardedObject are \
missing. Existing shards: ['decoder.layers.mlp.linear_fc1._extra_state/shard_0_48', \
'decoder.layers.mlp.linear_fc1._extra_state/shard_1_48']
"""

# The exception itself, raised on a rank of a resumed run.
RANK_EXCEPTION = """\
[rank1]:   File "/opt/megatron/core/dist_checkpointing/validation.py", line 510, in _validate
[rank1]:     raise CheckpointingException(_msg)
[rank1]: megatron.core.dist_checkpointing.core.CheckpointingException: Invalid access pattern for \
ShardedTensor(key='decoder.layers.self_attention.linear_qkv.weight', dtype=torch.bfloat16, \
local_shape=(1536, 4096), global_shape=(32, 6144, 4096))
"""

PROGRESS_ONLY = """\
[NeMo I 2026-02-11 08:40:12 change_partitions:318] validating the access pattern of 96 sharded \
tensors before load
[NeMo I 2026-02-11 08:40:19 change_partitions:352] Writing pp rank 0 tp rank 3 to /ckpt/tp4
"""


def test_a_bare_logged_sharding_check_is_the_error_not_the_cut_frame() -> None:
    diagnosis = diagnose_text("logs/change_partitions.log", BARE_LOGGER_THEN_CUT)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="Invalid access pattern for ShardedTensor",
        beside=("config",),
    )


def test_missing_sharded_objects_read_as_a_checkpoint_that_does_not_fit() -> None:
    diagnosis = diagnose_text("logs/export.log", LOGGED_MISSING_OBJECTS)
    assert_reads(diagnosis, "weight_load", first_error="24 ShardedObject are missing")


def test_the_checkpointing_exception_on_a_rank_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/rank1.log", RANK_EXCEPTION)
    assert_reads(
        diagnosis, "weight_load", first_error="CheckpointingException: Invalid access pattern"
    )


def test_a_line_about_validating_the_pattern_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/change_partitions.log", PROGRESS_ONLY)
    assert diagnosis.first_error is None


# A fine-tune started with another tensor-parallel size than the run that saved it.
ARGS_DIFFER = """\
  File "/srv/megatron/megatron/training/checkpointing.py", line 61, in _compare
    assert checkpoint_value == args_value, error_message
AssertionError: tensor_model_parallel_size value from checkpoint (2) is not equal to the input \
argument value (8).
"""

ARGS_FROM_CHECKPOINT = """\
Overwriting default kv_channels value None with value from checkpoint 128.
Overwriting default num_query_groups value 1 with value from checkpoint 8.
"""


def test_a_checkpoint_saved_with_another_parallel_size_is_refused_by_the_loader() -> None:
    diagnosis = diagnose_text("logs/train.log", ARGS_DIFFER)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="value from checkpoint (2) is not equal",
        beside=("config",),
    )


def test_arguments_read_from_a_checkpoint_are_no_failure() -> None:
    diagnosis = diagnose_text("logs/convert.log", ARGS_FROM_CHECKPOINT)
    assert diagnosis.first_error is None


# A load into flattened parameters (distributed optimizer, Megatron FSDP) from a checkpoint
# that stored its tensors whole: one rank shows the bare lookup, another the loader's exception.
FLATTENED_SHAPE_MISSING = """\
[rank1]: megatron.core.dist_checkpointing.core.CheckpointingException: Cannot find global shape \
metadata for N-D flattened tensor ShardedTensor(key='module.output_layer.weight', \
dtype=torch.bfloat16, local_shape=(32000, 4096), global_shape=(32000, 4096), global_offset=(0, 0), \
axis_fragmentations=(1, 1), replica_id=0, prepend_axis_num=0, allow_shape_mismatch=True, \
flattened_range=slice(0, 16384000, None)) in checkpoint metadata: {'module.output_layer.weight': {}, \
'module.decoder.final_layernorm.weight': {}}
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/megatron/megatron/core/dist_checkpointing/strategies/torch.py", line 804, in get_reformulation_metadata
[rank0]:     ckpt_global_shape = ckpt_metadata.mcore_data[sh_ten.key][
[rank0]:                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]: KeyError: 'nd_reformulated_orig_global_shape'
"""

FLATTENED_SHAPE_STORED = """\
 saving checkpoint at iteration     200 to /ckpt/run3 in torch_dist format
 storing nd_reformulated_orig_global_shape for 48 flattened tensors
 successfully saved checkpoint from iteration     200 to /ckpt/run3
"""


def test_a_checkpoint_without_the_shape_of_a_flattened_tensor_does_not_fit_the_load() -> None:
    diagnosis = diagnose_text("logs/train.log", FLATTENED_SHAPE_MISSING)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="Cannot find global shape metadata for N-D flattened",
        rule="wl.dist_ckpt_flattened_shape_missing",
        beside=("config",),
    )


def test_the_bare_lookup_of_the_shape_record_reads_the_same() -> None:
    bare = FLATTENED_SHAPE_MISSING[FLATTENED_SHAPE_MISSING.index("[rank0]: Traceback") :]
    diagnosis = diagnose_text("logs/rank0.log", bare)
    assert_reads(
        diagnosis, "weight_load", first_error="KeyError: 'nd_reformulated_orig_global_shape'"
    )


def test_storing_the_shape_record_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", FLATTENED_SHAPE_STORED)
    assert diagnosis.first_error is None


# A resume of the distributed optimizer: the common state rank 0 saved holds a per-parameter
# list of another length than the one this rank builds, and the merge stops (posted wrapped).
STATE_MERGE_LENGTHS = """\
[rank3]:   File "/opt/mcore/megatron/core/dist_checkpointing/dict_utils.py", line 227, in merge
[rank3]:     x1[k] = merge(x1[k], v2, key=key + (k,))
[rank3]: ValueError: Cannot merge two lists with different lengths (2 and 9,
[rank3]:   encountered at level ('optimizer', 0, 'param_state', 0, (torch.bfloat16, torch.float32), 0))
"""

# The factory merge of the same library, worded with `key`.
FACTORY_MERGE_KEYS = """\
ValueError: Different dict keys encountered in `apply_factory_merges` (dict_keys(['weight']) vs dict_keys(['weight', 'bias']))
"""

# A progress line that names the merge is no failure.
MERGE_PROGRESS = """\
INFO merging 2 lists of sharded tensors for key ('optimizer', 0)
"""


def test_a_checkpoint_state_that_does_not_merge_with_the_load_is_the_checkpoint() -> None:
    for text in (STATE_MERGE_LENGTHS, FACTORY_MERGE_KEYS):
        diagnosis = diagnose_text("resume/rank3.log", text)
        assert diagnosis.category == "weight_load", diagnosis.root_cause
        assert diagnosis.first_error is not None
        assert "Cannot merge two lists" in diagnosis.first_error.text or (
            "Different dict keys" in diagnosis.first_error.text
        )
        alternatives = {alt.category for alt in diagnosis.alternatives}
        assert "config" in alternatives


def test_a_merge_progress_line_is_no_failure() -> None:
    diagnosis = diagnose_text("resume/rank3.log", MERGE_PROGRESS)
    assert diagnosis.category != "weight_load", diagnosis.root_cause


# A fine-tune whose model was built with other dimensions than the checkpoint it loads: the
# loader compares each tensor's global shape with the checkpoint's metadata and stops at the
# first that differs (a recipe whose model settings lost a field, so the attention projection
# has another width). One rank shows the frame, another only the exception.
GLOBAL_SHAPE_DIFFERS = """\
[rank0]:   File "/opt/mcore/megatron/core/dist_checkpointing/strategies/torch.py", line 612, in _validate_global_shapes
[rank0]:     raise CheckpointingException(_msg)
[rank0]: megatron.core.dist_checkpointing.core.CheckpointingException: Global shape mismatch for \
loaded (torch.Size([28, 3072, 2048])) and expected ((28, 2560, 2048)) tensor for key \
decoder.layers.self_attention.linear_qkv.weight
[rank1]: megatron.core.dist_checkpointing.core.CheckpointingException: Global shape mismatch for \
loaded (torch.Size([28, 3072, 2048])) and expected ((28, 2560, 2048)) tensor for key \
decoder.layers.self_attention.linear_qkv.weight
"""

# The same check passing, as a verbose load reports it.
GLOBAL_SHAPES_CHECKED = """\
 loading distributed checkpoint from /ckpt/base at iteration 0
 validated global shapes of 322 sharded tensors against the checkpoint metadata
"""


def test_a_checkpoint_tensor_of_another_global_shape_is_the_checkpoint_that_does_not_fit() -> None:
    diagnosis = diagnose_text("logs/finetune.log", GLOBAL_SHAPE_DIFFERS)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="Global shape mismatch for loaded (torch.Size([28, 3072, 2048]))",
        rule="wl.dist_ckpt_global_shape_mismatch",
        beside=("config", "shape_mismatch"),
    )


def test_validating_global_shapes_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/finetune.log", GLOBAL_SHAPES_CHECKED)
    assert diagnosis.first_error is None
