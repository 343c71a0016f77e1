"""DeepSpeed's offline converter refusing a ZeRO checkpoint directory whose files do not add up.

Excerpts are written in the shape `zero_to_fp32.py` prints (a plain Python traceback from the
script, its progress line first) with paths and sizes of our own. Guide section:
docs/labelling.md#config-driver_env-or-weight_load.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FRAMES = """\
Processing zero checkpoint './ckpt/global_step1200'
Traceback (most recent call last):
  File "/work/ckpt/zero_to_fp32.py", line 601, in <module>
    convert_zero_checkpoint_to_fp32_state_dict(args.checkpoint_dir, args.output_file)
  File "/work/ckpt/zero_to_fp32.py", line 536, in convert_zero_checkpoint_to_fp32_state_dict
    state_dict = get_fp32_state_dict_from_zero_checkpoint(checkpoint_dir, tag)
  File "/work/ckpt/zero_to_fp32.py", line 521, in get_fp32_state_dict_from_zero_checkpoint
    return _get_fp32_state_dict_from_zero_checkpoint(ds_checkpoint_dir)
"""

TOO_MANY_SHARDS = (
    FRAMES
    + """\
  File "/work/ckpt/zero_to_fp32.py", line 94, in parse_optim_states
    f"Expected {world_size} of '*_optim_states.pt' under '{ds_checkpoint_dir}' but found {total_files} files. "
ValueError: Expected 2 of '*_optim_states.pt' under './ckpt/global_step1200' but found 8 files. \
Possibly due to an overwrite of an old checkpoint, or a checkpoint didn't get saved by one or more processes.
"""
)

PARTITIONS_SHORT = (
    FRAMES
    + """\
  File "/work/ckpt/zero_to_fp32.py", line 244, in _get_fp32_state_dict_from_zero_checkpoint
    f"consumed {offset} numels out of {avail_numel} - something is wrong")
ValueError: consumed 124439804 numels out of 124439808 - something is wrong
"""
)

PROGRESS_ONLY = """\
Processing zero checkpoint './ckpt/global_step1200'
Detected checkpoint of type zero stage 2, world_size: 8
Parsing checkpoint created by deepspeed==0.14.4
Saving fp32 state dict to pytorch_model.bin
"""


def test_a_directory_with_shards_of_another_size_is_a_refused_checkpoint() -> None:
    diagnosis = diagnose_text("logs/convert.log", TOO_MANY_SHARDS)
    assert_reads(diagnosis, "weight_load", first_error="but found 8 files", beside=("config",))


def test_partitions_that_do_not_cover_the_parameters_read_the_same() -> None:
    diagnosis = diagnose_text("logs/convert.log", PARTITIONS_SHORT)
    assert_reads(diagnosis, "weight_load", first_error="numels out of")
    assert diagnosis.confidence >= 0.5


def test_the_converters_progress_lines_report_nothing() -> None:
    diagnosis = diagnose_text("logs/convert.log", PROGRESS_ONLY)
    assert diagnosis.first_error is None
