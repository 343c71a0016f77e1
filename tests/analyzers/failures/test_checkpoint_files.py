"""Checkpoint files a resume cannot use: a shard or metadata file that is not there, and an
archive whose tensor records are not what was saved. docs/labelling.md#a-checkpoint-file-that-is-not-there
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of


@pytest.mark.parametrize(
    "line",
    [
        "[rank2]: FileNotFoundError: [Errno 2] No such file or directory: "
        "'/ckpt/run7/model_tp02-of-04.pt'",
        "2026-12-04 10:00:00,123 [rank5] ERROR resume failed: [Errno 2] No such file or "
        "directory: '/shared/ckpt/iter_0001000/mp_rank_05/model_optim_rng.pt'",
        "AssertionError: metadata is None; global metadata read failed: [Errno 2] No such file "
        "or directory: '/ckpt/step200/.metadata'; rank local metadata read failed: [Errno 2] No "
        "such file or directory: '/ckpt/step200/__0.metadata'",
    ],
)
def test_a_missing_checkpoint_file_is_the_checkpoint(line: str) -> None:
    diagnosis = diagnose_text("log_2.log", line + "\n")
    assert_reads(
        diagnosis, "weight_load", first_error="No such file or directory", beside=("config",)
    )


def test_a_missing_config_file_stays_the_jobs_setting() -> None:
    line = (
        "FileNotFoundError: [Errno 2] No such file or directory: '/models/x/parallel_config.json'"
    )
    assert diagnose_text("log_2.log", line + "\n").category == "config"


def test_a_tensor_record_of_another_size_is_an_unreadable_checkpoint() -> None:
    """All ranks saved to one path at once; the verifying load finds a record longer than
    the tensor its pickle describes."""
    text = (
        "verifying checkpoint /ckpt/model_latest.pt\n"
        "[rank0]: RuntimeError: record size (6400000 bytes) does not match expected size "
        "(1600000 bytes = 1600000 elements * 1 bytes/element) for dtype Byte\n"
    )
    diagnosis = diagnose_text("log_0.log", text)
    assert_reads(diagnosis, "weight_load", first_error="record size (6400000 bytes)")


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: storage has wrong size: expected -4611686018427387904 got 512",
        "[rank6]: RuntimeError: storage has wrong size: expected 7308895161001534532 got 2048",
    ],
)
def test_a_legacy_storage_record_of_another_size_is_an_unreadable_checkpoint(line: str) -> None:
    """The serializer before the zip archive states each storage's length; a length the
    pickle does not ask for (often a number that was never a length) is a damaged file."""
    text = (
        ">>> state = torch.load('/nfs/runs/seg/ckpt_rank6.pth.tar')\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/usr/lib/python3.6/site-packages/torch/serialization.py", line 476, in _load\n'
        "    deserialized_objects[key]._set_from_file(f, offset, f_is_real_file)\n"
        f"{line}\n"
    )
    diagnosis = diagnose_text("load.txt", text)
    assert_reads(diagnosis, "weight_load", first_error="storage has wrong size")


def test_a_storage_resize_line_that_states_two_sizes_is_no_error() -> None:
    """Counterexample."""
    text = "resize storage: expected 1024 got 2048 elements after padding\nepoch 3 done\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None


# Megatron-Core's distributed checkpoint keeps each sharded object in a file of its own; the
# load names the one the save never wrote. Values are ours.
OBJECT_SHARD_MISSING = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/train/restore.py", line 88, in restore
[rank0]:     state = dist_checkpointing.load(sharded_state_dict, ckpt_dir)
[rank0]:   File "/usr/local/lib/python3.10/dist-packages/megatron/core/dist_checkpointing/strategies/common.py", line 71, in load_sharded_object
[rank0]:     raise CheckpointingException(err_msg) from e
[rank0]: megatron.core.dist_checkpointing.core.CheckpointingException: Object shard /shared/ckpt/iter_0000400/model.decoder.layers.mlp._extra_state/shard_3_24.pt not found
"""


def test_a_missing_object_shard_of_a_distributed_checkpoint_is_the_checkpoint() -> None:
    diagnosis = diagnose_text("log_0.log", OBJECT_SHARD_MISSING)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.first_error is not None
    assert "Object shard" in diagnosis.first_error.text
    assert diagnosis.confidence >= 0.5


def test_a_line_naming_an_object_shard_it_loads_is_no_error() -> None:
    """Counterexample: progress beside a real failure."""
    text = (
        "loading object shard /shared/ckpt/iter_0000400/rng_state/shard_0_8.pt\n"
        "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    )
    diagnosis = diagnose_text("log_1.log", text)
    assert diagnosis.category == "oom"


def test_a_dot_file_in_the_working_folder_is_a_missing_file_of_the_job() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: a marker file ranks on a shared mount
    # create and remove has neither folder nor extension, and is no program name
    line = "[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '._ready_node0_K2QX'"
    diagnosis = diagnose_text("log_0.log", line + "\n")
    assert diagnosis.category == "config"
    assert "driver_env" in alternative_labels(diagnosis)


def test_arrows_wording_of_a_missing_cached_table_is_the_jobs_data_file() -> None:
    # a second node opening a datasets cache shard that only the first node's disk holds; the
    # peer's abort and the launcher's status follow it
    text = (
        "FileNotFoundError: [Errno 2] Failed to open local file '/home/u/.cache/huggingface/"
        "datasets/json/ft-0a1b/0.0.0/cache-5c6d_00000_of_00008.arrow'. Detail: [errno 2] No such "
        "file or directory\n"
        "NCCL INFO [Service thread] Connection closed by localRank 0\n"
        "[ERROR] [launch.py:321:sigkill_handler] exits with return code = 1\n"
    )
    diagnosis = diagnose_text("node2.log", text)
    assert_reads(
        diagnosis, "config", first_error="Failed to open local file", beside=("driver_env",)
    )


def test_arrows_refusal_for_another_errno_is_not_a_missing_file() -> None:
    line = (
        "OSError: [Errno 13] Failed to open local file '/data/shared/train-00001.parquet'. "
        "Detail: [errno 13] Permission denied"
    )
    diagnosis = diagnose_text("log_1.log", line + "\n")
    rules = rules_of(diagnosis)
    assert "cfg.missing_input_file" not in rules


# A checkpoint converter pointed at a folder with no checkpoint in it: Megatron's helper gives
# back only the job's arguments, and the loader that unpacks a pair stops.
CONVERTER_FINDS_NO_CHECKPOINT = """\
Checkpoint not found to provide arguments, using provided arguments.
Traceback (most recent call last):
  File "/srv/mlm/tools/checkpoint/convert.py", line 150, in <module>
    main()
  File "/srv/mlm/tools/checkpoint/loader_core.py", line 78, in _load_checkpoint
    margs, checkpoint_args = load_args_from_checkpoint(margs)
TypeError: cannot unpack non-iterable Namespace object
"""

# Unpacking a None is a value never set, not this tool's missing checkpoint.
UNPACK_NONE = """\
Traceback (most recent call last):
  File "/srv/app/run.py", line 12, in <module>
    a, b = lookup()
TypeError: cannot unpack non-iterable NoneType object
"""


def test_a_converter_that_finds_no_checkpoint_for_its_arguments_is_the_checkpoint() -> None:
    diagnosis = diagnose_text("convert.log", CONVERTER_FINDS_NO_CHECKPOINT)
    assert_reads(
        diagnosis, "weight_load", first_error="non-iterable Namespace object", beside=("config",)
    )


def test_unpacking_a_none_is_not_the_missing_checkpoint() -> None:
    diagnosis = diagnose_text("run.log", UNPACK_NONE)
    assert diagnosis.category != "weight_load", diagnosis.root_cause


@pytest.mark.parametrize(
    ("path", "category"),
    [
        # a data loader's token shard and a Megatron indexed dataset: data the job was given
        ("/mnt/data/tokens/shard-00002.bin", "config"),
        ("/data/pile/pile_text_document.bin", "config"),
        # weight files say so in their names
        ("/models/llama/pytorch_model-00002-of-00004.bin", "weight_load"),
        ("/out/checkpoint-500/optimizer.bin", "weight_load"),
    ],
)
def test_a_bin_file_is_a_checkpoint_only_when_its_name_says_so(path: str, category: str) -> None:
    """`.bin` holds tokenised corpora as well as weights. A gloo job whose rank 3's
    data loader worker could not open its token shard (`Caught FileNotFoundError in
    DataLoader worker process 0.`, the worker's own line under it) read as a checkpoint."""
    text = (
        "[rank3]: FileNotFoundError: Caught FileNotFoundError in DataLoader worker process 0.\n"
        "[rank3]: Original Traceback (most recent call last):\n"
        '[rank3]:   File "/home/user/pretrain/train.py", line 84, in __getitem__\n'
        '[rank3]:     with open(shard, "rb") as fh:\n'
        f"[rank3]: FileNotFoundError: [Errno 2] No such file or directory: '{path}'\n"
    )
    diagnosis = diagnose_text("log_3.log", text)
    assert_reads(diagnosis, category, first_error="No such file or directory")


# A trainer's own checkpoint loader says in its words that a saved step's model or weights
# folder is not there (no errno): the resume found the step but not what it should hold.
# Values are ours. docs/labelling.md#a-checkpoint-file-that-is-not-there
STEP_WEIGHTS_MISSING = """\
ray::policy-0:PolicyWorker.__init__() (pid=4411, ip=10.1.0.7, actor_id=aa01, repr=PolicyWorker[rank=3])
  File "/opt/rl/models/policy/worker.py", line 310, in __init__
    self.load_checkpoint(weights_path, optimizer_path)
  File "/opt/rl/utils/checkpoint.py", line 120, in load_checkpoint
    raise FileNotFoundError(msg) from e
FileNotFoundError: Failed to load model from '/runs/exp4/step_6/policy/weights/model': Model path /runs/exp4/step_6/policy/weights/model does not exist
"""


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: Checkpoint path /ckpt/run3/global_step_400/actor does not exist",
        "[rank0]: FileNotFoundError: Failed to load checkpoint from '/shared/ckpt/iter_0002000': "
        "Weights path /shared/ckpt/iter_0002000/weights does not exist",
    ],
)
def test_a_loaders_own_missing_step_folder_is_the_checkpoint(line: str) -> None:
    diagnosis = diagnose_text("log_0.log", line + "\n")
    assert_reads(diagnosis, "weight_load", first_error="does not exist", beside=("config",))


def test_a_policy_worker_that_finds_its_step_without_weights_is_the_checkpoint() -> None:
    diagnosis = diagnose_text("driver.log", STEP_WEIGHTS_MISSING)
    assert_reads(diagnosis, "weight_load", first_error="Failed to load model from")
    assert diagnosis.confidence >= 0.5
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


@pytest.mark.parametrize(
    "line",
    [
        # a model folder the job was given, no saved step in it: the job's setting
        "ValueError: Model path /models/Qwen2.5-7B-Instruct does not exist",
        # a resume that finds no step and starts over reports, it does not fail
        "WARNING Checkpoint path /ckpt/run3/global_step_400 does not exist, starting from scratch",
        "INFO Loading model from '/runs/exp4/step_6/policy/weights/model'",
    ],
)
def test_other_missing_paths_and_notices_are_not_a_missing_step(line: str) -> None:
    diagnosis = diagnose_text("log_0.log", line + "\n")
    rules = rules_of(diagnosis)
    assert "wl.checkpoint_step_path_missing" not in rules


# A distributed checkpoint's save where a folder sits at one rank's shard file name; every rank
# restates the gathered failure with that rank's traceback.
SHARD_PATH_IS_A_FOLDER = """\
2026-03-08 10:41:02,118 [RANK 0] INFO: Saving the checkpoint to /ckpt/run3/step-200.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/train/main.py", line 141, in save
[rank0]:     dcp.save({"model": model.state_dict()}, checkpoint_id=path)
[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([1])
[rank0]: Traceback (most recent call last): (RANK 1)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/filesystem.py", line 397, in _write_files_from_queue
[rank0]:     with create_stream(file_name, "wb") as stream:
[rank0]: IsADirectoryError: [Errno 21] Is a directory: '/ckpt/run3/step-200/__1_0.distcp'
"""


def test_a_shard_path_taken_by_a_folder_is_the_path_the_job_was_given() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("job/log_0.log", SHARD_PATH_IS_A_FOLDER)
    assert_reads(
        diagnosis, "config", first_error="Is a directory", beside=("weight_load", "driver_env")
    )


def test_a_line_naming_a_folder_it_reads_is_no_failure() -> None:
    text = "2026-03-08 10:41:02,118 [RANK 0] INFO: /ckpt/step-3 is a directory, loading the sharded checkpoint\n"
    diagnosis = diagnose_text("job/log_0.log", text)
    assert diagnosis.category != "config", diagnosis.root_cause
