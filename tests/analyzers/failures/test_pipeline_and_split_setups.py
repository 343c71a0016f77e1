"""Set-ups of older pipeline and tensor-parallel frameworks that do not fit the launch.

docs/labelling.md#a-pipeline-split-into-fewer-stages-than-ranks: more processes than pipeline
stages is the launch (`config`), in PiPPy's wording and in torch pipelining's (`Pipeline group
size N cannot be larger than number of stages M`).
docs/labelling.md#a-pipeline-or-remote-reference-before-rpc-started: a pipeline or remote
reference used before `init_rpc` is a missing start-up step (`config`, `other` beside it),
although the check asks for a bug report.
docs/labelling.md#an-activation-split-that-does-not-divide-over-the-group: a tensor-parallel
layer that cannot split an activation evenly is `shape_mismatch`, `config` beside it; so is a
sequence-parallel split or a context-parallel sharding hook that words the same check its own way.
docs/labelling.md#a-traced-pipeline-stage-missing-an-input: a stage graph from the tracer whose
input the schedule never feeds is the front end's split of that model (`other`, settled, with
`config` beside it), not a peer or the device.

Fixtures are written in the shape of the frameworks' output, with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MORE_RANKS_THAN_STAGES = """\
Traceback (most recent call last):
  File "/srv/gen/split_unet.py", line 21, in <module>
    model = prepare_pippy(model, split_points="auto", example_kwargs=inputs)
  File "/opt/env/lib/python3.10/site-packages/pippy/PipelineStage.py", line 70, in __init__
    raise RuntimeError(
RuntimeError: Number of ranks is larger than number of stages, some ranks are unused
[2025-01-09 08:00:12,004] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 4410) of binary: /opt/env/bin/python
"""

PIPE_WITHOUT_RPC = """\
Traceback (most recent call last):
  File "pipe_demo.py", line 12, in <module>
    out = model(batch)
  File "/opt/env/lib/python3.8/site-packages/torch/distributed/pipeline/sync/pipe.py", line 380, in forward
    return RRef(output)
RuntimeError: agent INTERNAL ASSERT FAILED at "/opt/src/torch/csrc/distributed/rpc/rpc_agent.cpp":250, please report a bug to PyTorch. Current RPC agent is not set!
"""

UNEVEN_SPLIT = """\
Traceback (most recent call last):
  File "/srv/lm/train.py", line 98, in <module>
    main()
  File "/opt/env/lib/python3.8/site-packages/colossalai/nn/layer/parallel_2d/_operation.py", line 640, in split_batch_2d
    assert input_.size(dim) % tesseract_dim == 0, \\
AssertionError: The dimension 0 to split, size (6) is not a multiple of world size (4), cannot split tensor evenly
"""


SEQUENCE_SPLIT = """\
[rank1]:   File "/opt/env/lib/python3.12/site-packages/trainer/sequence_parallel/ulysses.py", line 388, in split
[rank1]:     assert dim_size % self.sp_world_size == 0, (
[rank1]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank1]: AssertionError: The dimension to split (3071) is not a multiple of world size (4), cannot split tensor evenly
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/env/lib/python3.12/site-packages/trainer/cli/train.py", line 9, in <module>
[rank0]:     main()
"""

MESH_SHARD_HOOK = """\
[rank2]:   File "/opt/env/lib/python3.11/site-packages/imagegen/hooks/context_parallel.py", line 240, in _prepare_input
[rank2]:     return Sharder.shard(x, spec.split_dim, self.config.mesh)
[rank2]:   File "/opt/env/lib/python3.11/site-packages/imagegen/hooks/context_parallel.py", line 281, in shard
[rank2]:     assert tensor.size()[dim] % mesh.size() == 0, (
[rank2]: AssertionError: Tensor size along dimension to be sharded must be divisible by mesh size
"""


TRACED_STAGE_INPUT_MISSING = """\
[rank1]:   File "/opt/env/lib/python3.12/site-packages/torch/fx/interpreter.py", line 301, in run_node
[rank1]:     return getattr(self, n.op)(n.target, args, kwargs)
[rank1]:   File "/opt/env/lib/python3.12/site-packages/torch/fx/interpreter.py", line 337, in placeholder
[rank1]:     raise RuntimeError(
[rank1]: RuntimeError: Expected positional argument for parameter rotary_cos, but one was not passed in!

[rank1]: While executing %rotary_cos : [num_users=2] = placeholder[target=rotary_cos]
[rank0]:[W1203 10:02:11.120044 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was not called before program exit
"""


def test_a_traced_stage_input_never_fed_is_the_split() -> None:
    diagnosis = diagnose_text("pp_rank1.log", TRACED_STAGE_INPUT_MISSING)
    assert_reads(
        diagnosis,
        "other",
        first_error="Expected positional argument for parameter rotary_cos",
        rule="other.traced_stage_input_not_passed",
        beside=("config",),
    )


def test_more_processes_than_pipeline_stages_is_the_launch() -> None:
    diagnosis = diagnose_text("launch.log", MORE_RANKS_THAN_STAGES)
    assert_reads(diagnosis, "config", first_error="larger than number of stages")
    assert any("one process per pipeline stage" in action for action in diagnosis.next_actions)


def test_a_pipe_used_before_init_rpc_is_a_missing_startup_step() -> None:
    diagnosis = diagnose_text("stderr.log", PIPE_WITHOUT_RPC)
    assert_reads(diagnosis, "config", first_error="Current RPC agent is not set", beside=("other",))
    assert any("init_rpc" in action for action in diagnosis.next_actions)


def test_an_activation_that_does_not_split_over_the_group_is_a_shape() -> None:
    diagnosis = diagnose_text("worker.log", UNEVEN_SPLIT)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="is not a multiple of world size",
        beside=("config",),
    )


def test_a_sequence_split_worded_without_a_dimension_index_is_a_shape() -> None:
    diagnosis = diagnose_text("train.log", SEQUENCE_SPLIT)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="The dimension to split (3071)", beside=("config",)
    )


def test_a_context_parallel_hook_that_cannot_shard_over_its_mesh_is_a_shape() -> None:
    diagnosis = diagnose_text("generate.log", MESH_SHARD_HOOK)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="to be sharded must be divisible by mesh size",
        beside=("config",),
    )


def test_start_up_lines_about_stages_and_splits_are_no_failures() -> None:
    text = (
        "INFO pipeline: number of stages 4, number of ranks 4\n"
        "INFO: the dimension 0 to split has size (8), world size (4)\n"
        "INFO rpc: current RPC agent is TensorPipeAgent(worker0)\n"
    )
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.first_error is None


STAGE_GROUP_LARGER_THAN_STAGES = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/pp/run_split.py", line 57, in <module>
[rank2]:     stage = pipe.build_stage(rank, device=device)
[rank2]:             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/distributed/pipelining/_IR.py", line 1160, in build_stage
[rank2]:     return _PipelineStage(stage_module, stage_index, pipe_info, device, group)
[rank2]:   File "/opt/env/lib/python3.11/site-packages/torch/distributed/pipelining/stage.py", line 141, in __init__
[rank2]:     raise RuntimeError(
[rank2]: RuntimeError: Pipeline group size 8 cannot be larger than number of stages 2
"""


def test_a_pipelining_stage_built_for_more_ranks_than_stages_is_the_launch() -> None:
    diagnosis = diagnose_text("rank2.log", STAGE_GROUP_LARGER_THAN_STAGES)
    assert_reads(diagnosis, "config", first_error="cannot be larger than number of stages")
    assert any("one process per pipeline stage" in action for action in diagnosis.next_actions)
