"""Failures of torch's distributed checkpoint (DCP) save and load in a job's log.

docs/labelling.md#wrappers: the `CheckpointException ranks:...` headline echoes the per-rank
exceptions listed under it.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SITE = "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint"

# A resume whose model has a parameter the saved checkpoint lacks: every rank's load planner
# refuses, and the coordinator raises one exception listing them.
MISSING_KEY_LOAD = f"""\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/trainer/resume.py", line 57, in <module>
[rank1]:     dcp.load(state, checkpoint_id=ckpt_dir)
[rank1]:   File "{SITE}/state_dict_loader.py", line 181, in load
[rank1]:     _load_state_dict(
[rank1]:   File "{SITE}/state_dict_loader.py", line 240, in _load_state_dict
[rank1]:     central_plan: LoadPlan = distW.reduce_scatter("plan", local_step, global_step)
[rank1]:   File "{SITE}/utils.py", line 198, in reduce_scatter
[rank1]:     raise result
[rank1]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([0, 1])
[rank1]: Traceback (most recent call last): (RANK 0)
[rank1]:   File "{SITE}/utils.py", line 171, in reduce_scatter
[rank1]:     local_data = map_fun()
[rank1]:   File "{SITE}/default_planner.py", line 361, in create_default_local_load_plan
[rank1]:     raise RuntimeError(f"Missing key in checkpoint state_dict: {{fqn}}.")
[rank1]: RuntimeError: Missing key in checkpoint state_dict: decoder.blocks.0.attn.wo.weight.
[rank1]: Traceback (most recent call last): (RANK 1)
[rank1]:   File "{SITE}/utils.py", line 171, in reduce_scatter
[rank1]:     local_data = map_fun()
[rank1]: RuntimeError: Missing key in checkpoint state_dict: decoder.blocks.0.attn.wo.weight.
"""

# The same shape, the checkpoint written with a wider model: the planner compares sizes.
SIZE_MISMATCH_LOAD = MISSING_KEY_LOAD.replace(
    "RuntimeError: Missing key in checkpoint state_dict: decoder.blocks.0.attn.wo.weight.",
    "ValueError: Size mismatch between saved torch.Size([8192, 1024]) and current: "
    "torch.Size([8192, 2048]) for decoder.embed.weight",
)

# A rank whose listed exception no signature knows: still the reason, not the headline.
UNKNOWN_INNER = MISSING_KEY_LOAD.replace(
    "RuntimeError: Missing key in checkpoint state_dict: decoder.blocks.0.attn.wo.weight.",
    "OSError: [Errno 116] Stale file handle: '/mnt/shared/ckpt/step_800/__0_0.distcp'",
)

# A paste that kept only the headline.
HEADLINE_ONLY = "\n".join(MISSING_KEY_LOAD.splitlines()[:10]) + "\n"


def test_a_missing_key_listed_under_the_headline_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/rank1.log", MISSING_KEY_LOAD)
    assert_reads(diagnosis, "weight_load", first_error="Missing key in checkpoint state_dict")


def test_a_saved_size_that_differs_from_the_model_is_a_weight_load_failure() -> None:
    diagnosis = diagnose_text("logs/rank1.log", SIZE_MISMATCH_LOAD)
    assert_reads(diagnosis, "weight_load", first_error="Size mismatch between saved")


def test_an_unknown_exception_under_the_headline_still_comes_before_it() -> None:
    diagnosis = diagnose_text("logs/rank1.log", UNKNOWN_INNER)
    assert diagnosis.first_error is not None
    assert "Stale file handle" in diagnosis.first_error.text


def test_the_headline_alone_reads_as_a_failed_load_without_confidence() -> None:
    diagnosis = diagnose_text("logs/rank1.log", HEADLINE_ONLY)
    assert_reads(
        diagnosis, "weight_load", first_error="CheckpointException ranks:dict_keys([0, 1])"
    )
    assert diagnosis.confidence < 0.5


# The file reader of a sharded checkpoint: the tensor a rank asks for has another size than
# the shard stored for it (the checkpoint written under another sharding or model).
READER_SIZE_ASSERTION = f"""\
  File "{SITE}/state_dict_loader.py", line 226, in read_data
    all_reads = storage_reader.read_data(final_local_plan, planner)
  File "{SITE}/filesystem.py", line 665, in read_data
    target_tensor.size() == tensor.size()
AssertionError: req MetadataIndex(fqn='decoder.embed.weight', offset=torch.Size([0, 0]), \
index=0) mismatch sizes torch.Size([2048]) vs torch.Size([2048, 1024])
"""


def test_the_file_readers_size_assertion_is_a_weight_load_failure() -> None:
    diagnosis = diagnose_text("logs/rank0.log", READER_SIZE_ASSERTION)
    assert_reads(diagnosis, "weight_load", first_error="mismatch sizes torch.Size([2048])")
    assert diagnosis.confidence >= 0.5


# Older torch kept the planner under `_shard/checkpoint`; its load planner looks each model key
# up in the saved metadata and a key the checkpoint never held raises a bare KeyError.
SHARD_SITE = "/usr/lib/python3.10/site-packages/torch/distributed/_shard/checkpoint"
PLANNER_KEY_ERROR = f"""\
Traceback (most recent call last): (RANK 2)
  File "{SHARD_SITE}/utils.py", line 140, in reduce_scatter
    local_data = map_fun()
  File "{SHARD_SITE}/state_dict_loader.py", line 89, in local_step
    local_plan = planner.create_local_plan()
  File "{SHARD_SITE}/default_planner.py", line 85, in create_local_plan
    return create_default_local_load_plan(self.state_dict, self.metadata)
  File "{SHARD_SITE}/default_planner.py", line 131, in create_default_local_load_plan
    md = metadata.state_dict_metadata[fqn]
KeyError: 'cls_token'
"""

# The same bare KeyError raised by a data set's lookup is no checkpoint's.
DATASET_KEY_ERROR = """\
Traceback (most recent call last):
  File "/usr/lib/python3.10/site-packages/torch/utils/data/_utils/fetch.py", line 51, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
  File "/usr/lib/python3.10/site-packages/datasets/arrow_dataset.py", line 2762, in __getitem__
    return self._getitem(key)
KeyError: 'cls_token'
"""


def test_a_key_the_load_planner_cannot_find_in_the_saved_metadata_is_weight_load() -> None:
    diagnosis = diagnose_text("logs/rank2.log", PLANNER_KEY_ERROR)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="KeyError: 'cls_token'",
    )


def test_the_same_key_error_from_a_data_set_is_not_the_planners() -> None:
    diagnosis = diagnose_text("logs/rank2.log", DATASET_KEY_ERROR)
    assert diagnosis.category != "weight_load"
