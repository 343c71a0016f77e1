"""Trainers that compose several parallel dimensions refuse a layout in their own words.

docs/labelling.md#operator-installation-or-platform-limit (a backend that keeps no collective
sequence numbers), #a-pipeline-schedule-that-the-micro-batch-count-does-not-fit (a pipeline
stage left without parameters), #dtensor-parameters-under-a-wrapper-that-does-not-know-them
(operands on two meshes) and #a-device-mesh-that-refuses-the-layout-it-is-asked-to-build (a
bare exception from FSDP's hybrid-shard set-up). Each is the layout the job chose and the
release or model not fitting: `config`. The fixtures follow what torchrun, a `[defaultN]:`
tee and a rank's traceback print (hosts, paths and numbers are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# torchrun's failure summary quoting a rank's error file: the trainer builds its data-loading
# mesh by unflattening the world mesh, and a dimension backed by the fake backend is asked for
# its sequence number.
FAKE_BACKEND_SUMMARY = """\
Root Cause (first observed failure):
[0]:
  time      : 2026-02-03_08:41:17
  host      : trn-node-04
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 51220)
  error_file: /tmp/torchelastic_q1w2e3r4/none_abcd1234/attempt_0/0/error.json
  traceback : Traceback (most recent call last):
    File "/srv/titan/trainer/main.py", line 88, in __init__
      loader_mesh = dims.get_mesh("batch")
    File "/srv/titan/trainer/parallel.py", line 131, in build_mesh
      loader_mesh = world_mesh._unflatten(0, (1, 4), ("dp_replicate", "dp_shard"))
    File "/opt/env/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 1190, in _create_unflatten_mesh
      group_names[i : i + 1],
  RuntimeError: Backend fake does not yet support sequence numbers.
  
============================================================
"""

# Counterexample: the trainer's start-up note about the fake backend is no failure; the run
# then fails on memory, which is what the report must name.
FAKE_BACKEND_NOTE_THEN_OOM = """\
[rank0]:[titan] 2026-02-03 08:40:02,118 - root - INFO - dimension 'batch' has size 1, backed by the fake backend (no sequence numbers)
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.
"""


def test_a_backend_without_sequence_numbers_is_config() -> None:
    diagnosis = diagnose_text("job/train.log", FAKE_BACKEND_SUMMARY)
    assert_reads(
        diagnosis,
        "config",
        first_error="Backend fake does not yet support sequence numbers",
        rule="cfg.backend_sequence_numbers_unsupported",
        beside=("hccl",),
    )


FAKE_BACKEND_RANK_LINE = """\
[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 1190, in _create_unflatten_mesh
[rank2]:     group_names[i : i + 1],
[rank2]: RuntimeError: Backend fake does not yet support sequence numbers.
"""


def test_the_refusal_in_a_ranks_own_output_is_config_too() -> None:
    diagnosis = diagnose_text("job/rank2.log", FAKE_BACKEND_RANK_LINE)
    assert diagnosis.category == "config"
    assert "cfg.backend_sequence_numbers_unsupported" in rules_of(diagnosis)
    assert diagnosis.confidence >= 0.6


def test_a_note_about_the_fake_backend_is_no_failure() -> None:
    diagnosis = diagnose_text("job/train.log", FAKE_BACKEND_NOTE_THEN_OOM)
    assert diagnosis.category == "oom"
    assert "cfg.backend_sequence_numbers_unsupported" not in rules_of(diagnosis)


# torchrun --tee output of two local ranks of the same empty pipeline stage, interleaved.
EMPTY_PIPELINE_STAGE = """\
[default2]:02/11/2026 14:02:51 [INFO|DP=0|PP=1|TP=0]: Local number of parameters: 0 (0.00MiB)
[default3]:Traceback (most recent call last):
[default3]:  File "/work/nt/run_train.py", line 120, in <module>
[default2]:Traceback (most recent call last):
[default3]:    trainer = DistributedTrainer(config_file)
[default3]:  File "/work/nt/src/nanotron/trainer.py", line 650, in _init_model
[default3]:    check_model_has_grad(model=model, parallel_context=parallel_context)
[default3]:  File "/work/nt/src/nanotron/models/base.py", line 280, in check_model_has_grad
[default3]:    raise ValueError(
[default3]:ValueError: Can't use DDP because model in PP=1 has no gradient. Consider increasing the number of layers of your model, or put a smaller PP size.
"""

# Counterexample: the same start-up print on a stage that then trains is no failure.
EMPTY_STAGE_PRINT_ONLY = """\
[default2]:02/11/2026 14:02:51 [INFO|DP=0|PP=1|TP=0]: Local number of parameters: 0 (0.00MiB)
[default2]:02/11/2026 14:03:40 [INFO|DP=0|PP=1|TP=0]: iteration: 1 / 200 | lm_loss: 11.2
"""


def test_a_pipeline_stage_without_parameters_is_config() -> None:
    diagnosis = diagnose_text("job/launcher.log", EMPTY_PIPELINE_STAGE)
    assert_reads(
        diagnosis,
        "config",
        first_error="has no gradient. Consider increasing the number of layers",
        rule="cfg.pipeline_stage_without_parameters",
    )
    assert diagnosis.confidence >= 0.6


def test_the_stages_parameter_count_print_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("job/launcher.log", EMPTY_STAGE_PRINT_ONLY)
    assert "cfg.pipeline_stage_without_parameters" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


# A gradient-norm clip that stacks the norms of expert parameters (data-parallel mesh) with the
# dense ones (data-parallel x tensor-parallel mesh), quoted indented as under a summary.
STACK_OVER_TWO_MESHES = """\
    File "/srv/titan/trainer/grad_clip.py", line 61, in clip_grad_norm_
      total = torch.stack(norms).norm()
  ValueError: All operands in aten.stack.default must have the same mesh, but got DeviceMesh('cuda', [0, 2], mesh_dim_names=('fsdp',)) and DeviceMesh('cuda', [[0, 1], [2, 3]], mesh_dim_names=('fsdp', 'tp')).
"""

STACK_SAME_MESH_NOTE = """\
[rank0]: DEBUG - all operands of the grad-norm stack have the same mesh (fsdp, tp)
[rank0]: ValueError: max_norm must be positive, got -1.0
"""


def test_operands_on_two_meshes_are_config() -> None:
    diagnosis = diagnose_text("job/train.log", STACK_OVER_TWO_MESHES)
    assert_reads(
        diagnosis, "config", first_error="must have the same mesh", rule="cfg.dtensor_without_mesh"
    )
    assert diagnosis.confidence >= 0.6


def test_a_note_that_the_operands_share_a_mesh_is_not_the_refusal() -> None:
    diagnosis = diagnose_text("job/train.log", STACK_SAME_MESH_NOTE)
    assert "cfg.dtensor_without_mesh" not in rules_of(diagnosis)


# The second node's rank of a hybrid-shard job whose mesh covers one node only: FSDP's set-up of
# the hybrid groups stops with a bare IndexError.
HYBRID_SHARD_RANK_OUTSIDE_MESH = """\
[rank11]: Traceback (most recent call last):
[rank11]:   File "/srv/mm/train/fsdp_setup.py", line 61, in wrap_model
[rank11]:     return FSDP(
[rank11]:   File "/usr/local/lib/python3.11/dist-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py", line 454, in __init__
[rank11]:     _init_process_group_state(
[rank11]:   File "/usr/local/lib/python3.11/dist-packages/torch/distributed/fsdp/_init_utils.py", line 127, in _init_process_group_state
[rank11]:     state = _init_process_group_state_for_hybrid_shard(
[rank11]: IndexError: list index out of range
"""

# Counterexample: the same IndexError raised in the job's own sampler is not the layout.
SAMPLER_INDEX_ERROR = """\
[rank11]: Traceback (most recent call last):
[rank11]:   File "/srv/mm/train/sampler.py", line 88, in __iter__
[rank11]:     yield self.buckets[self.cursor]
[rank11]: IndexError: list index out of range
"""


def test_a_bare_index_error_in_fsdps_hybrid_setup_is_config() -> None:
    diagnosis = diagnose_text("job/node1.log", HYBRID_SHARD_RANK_OUTSIDE_MESH)
    assert_reads(diagnosis, "config", first_error="IndexError: list index out of range")


def test_the_same_index_error_in_the_jobs_sampler_stays_other() -> None:
    diagnosis = diagnose_text("job/node1.log", SAMPLER_INDEX_ERROR)
    assert diagnosis.category == "other"
