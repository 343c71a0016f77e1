"""DeviceMesh and process-subgroup refusals of a layout, before any collective runs.

A device mesh asked for a shape and names that disagree, a slice of a slice, or a flattened
name a submesh already holds, and a subgroup size the world cannot hold, all say that the
parallel degrees and the code path they enable do not fit: `config`, with `other` beside the
mesh refusals (docs/labelling.md#a-device-mesh-that-refuses-the-layout-it-is-asked-to-build).
One tensor dimension sharded over two mesh dimensions that reaches an op whose DTensor rule
cannot take it is the plan's misfit with the op
(docs/labelling.md#dtensor-parameters-under-a-wrapper-that-does-not-know-them). Fixtures are
written in torchrun's and the frameworks' formats with paths, names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SHAPE_AND_NAMES_DISAGREE = """\
Traceback (most recent call last):
  File "/srv/rlkit/rlkit/trainer/grpo.py", line 88, in main
    trainer = GRPOTrainer(cfg)
  File "/srv/rlkit/rlkit/workers/base.py", line 52, in __init__
    self.mesh = init_device_mesh(
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 1011, in init_device_mesh
    raise RuntimeError(
RuntimeError: ('mesh_shape and mesh_dim_names should have same length!', 'Found len(mesh_dim_names): 3 and len(mesh_shape):2.')
"""

SLICE_OF_A_SLICE = """\
[rank6]:   File "/opt/venv/lib/python3.11/site-packages/videogen/parallel/context.py", line 97, in build
[rank6]:     self.ring_mesh = self.cp_mesh["ring"]
[rank6]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 706, in __getitem__
[rank6]:     slice_mesh_dims = _mesh_resources._get_slice_mesh_dims(
[rank6]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 291, in _get_slice_mesh_dims
[rank6]:     raise RuntimeError("Cannot create a submesh from a submesh.")
[rank6]: RuntimeError: Cannot create a submesh from a submesh.
"""

FLATTENED_NAME_TAKEN = """\
2026-05-02 10:14:07 INFO parallel: building mesh (dp=2, cp=2, tp=2)
Traceback (most recent call last):
  File "/srv/imggen/imggen/parallel/config.py", line 131, in __post_init__
    self._flatten_meshes()
RuntimeError: ("cp already exists for submesh of the DeviceMesh((dp=2, cp=2, tp=2), device: 'cuda', stride: (4, 2, 1)). ", 'The mesh_dim_names of submesh and flattened mesh are ...')
"""

HYBRID_SHARD_GROUP_TOO_LARGE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/sft/train.py", line 204, in wrap_model
[rank0]:     model = FSDP(model, sharding_strategy=ShardingStrategy.HYBRID_SHARD)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_init_utils.py", line 207, in _init_intra_node_process_group
[rank0]:     intra_node_subgroup, _ = dist.new_subgroups(num_devices_per_node)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 5488, in new_subgroups
[rank0]:     raise ValueError(
[rank0]: ValueError: The arg 'group_size' (4) must not exceed the world size (3)
"""

DIMENSION_SHARDED_TWICE = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/lm/pretrain.py", line 140, in init_weights
[rank2]:     block.reset_parameters()
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/init.py", line 201, in normal_
[rank2]:     return tensor.normal_(mean, std, generator=generator)
[rank2]: ValueError: Tensor dim 0 is already sharded on mesh dim 1, DTensor operator implementation does not support things like hybrid sharding strategies yet (i.e. [Shard(0), Shard(0)])
"""

# FSDP2 wrapping parameters of an expert-parallel plan whose mesh was built apart from the
# FSDP mesh, quoted once with the exception class and once without it.
MESHES_OF_TWO_ROOTS = """\
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param.py", line 301, in _init_sharded_param
[rank3]:     raise AssertionError(
[rank3]: AssertionError: FSDP requires the DP and TP mesh to have the same parent mesh but got: 
[rank3]: DP's global mesh: DeviceMesh('cuda', [0, 1, 2, 3], mesh_dim_names=('fsdp',))
[rank3]: TP's global mesh: DeviceMesh('cuda', [[0, 1], [2, 3]], mesh_dim_names=('ep_dp', 'ep'))
"""

MESHES_OF_TWO_ROOTS_BARE = """\
FSDP requires the DP and TP mesh to have the same parent mesh but got:  DP's global mesh: DeviceMesh('cuda', [0, 1]) TP's global mesh: DeviceMesh('cuda', [[0], [1]])
"""

MESH_BUILT = """\
2026-05-02 10:14:07 INFO parallel: init_device_mesh mesh_shape=(2, 4) mesh_dim_names=('dp', 'tp')
2026-05-02 10:14:09 INFO parallel: creating submesh ring from root mesh (ring=2, ulysses=2)
2026-05-02 10:14:12 INFO trainer: step 1 loss 9.812
2026-05-02 10:14:13 INFO trainer: FSDP and TP meshes share the same parent mesh (dp=4, tp=2)
"""


def test_a_mesh_whose_shape_and_names_disagree_is_the_layout() -> None:
    diagnosis = diagnose_text("worker.log", SHAPE_AND_NAMES_DISAGREE)
    assert_reads(
        diagnosis,
        "config",
        first_error="mesh_shape and mesh_dim_names should have same length",
        rule="cfg.device_mesh_layout_refused",
    )
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_a_slice_of_a_slice_is_the_refusal_not_the_raise_line() -> None:
    diagnosis = diagnose_text("rank6.log", SLICE_OF_A_SLICE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith(
        "RuntimeError: Cannot create a submesh from a submesh."
    )
    assert "cfg.device_mesh_layout_refused" in rules_of(diagnosis)


def test_a_flattened_name_a_submesh_holds_is_the_layout() -> None:
    diagnosis = diagnose_text("stdout.log", FLATTENED_NAME_TAKEN)
    assert_reads(
        diagnosis,
        "config",
        first_error="cp already exists for submesh",
        rule="cfg.device_mesh_layout_refused",
    )


def test_a_hybrid_shard_group_larger_than_the_world_is_the_launch() -> None:
    diagnosis = diagnose_text("rank0.log", HYBRID_SHARD_GROUP_TOO_LARGE)
    assert_reads(
        diagnosis,
        "config",
        first_error="must not exceed the world size (3)",
        rule="cfg.subgroup_size_exceeds_world",
    )


def test_a_dimension_sharded_over_two_mesh_dims_is_the_plan() -> None:
    diagnosis = diagnose_text("rank2.log", DIMENSION_SHARDED_TWICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="is already sharded on mesh dim 1",
        rule="cfg.dtensor_placement_refused",
    )
    assert any(alt.category == "operator" for alt in diagnosis.alternatives)


def test_a_mesh_that_was_built_reports_nothing() -> None:
    diagnosis = diagnose_text("train.log", MESH_BUILT)
    assert "cfg.device_mesh_layout_refused" not in rules_of(diagnosis)
    assert "cfg.subgroup_size_exceeds_world" not in rules_of(diagnosis)


def test_fsdp_refusing_meshes_of_two_roots_is_the_layout() -> None:
    diagnosis = diagnose_text("rank3.log", MESHES_OF_TWO_ROOTS)
    assert_reads(
        diagnosis,
        "config",
        first_error="to have the same parent mesh",
        rule="cfg.device_mesh_layout_refused",
    )
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_fsdps_mesh_refusal_without_its_exception_class_is_still_read() -> None:
    diagnosis = diagnose_text("train.log", MESHES_OF_TWO_ROOTS_BARE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("FSDP requires the DP and TP mesh")
