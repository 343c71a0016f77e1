"""Process groups that torch's registry refuses, and groups asked for ranks past the world.

docs/labelling.md#a-group-handle-the-registry-refuses: a collective or a rank query handed a
group torch does not hold, or one that lacks the rank the call names, is a wrong group set-up
(`hccl`, `config` beside it).
docs/labelling.md#a-group-asked-for-ranks-beyond-the-world: `new_group` refusing ranks past the
started world is a layout built for more processes than were launched (`config`, `hccl`
beside it).

Fixtures are written in the shape of Megatron-style and auto-parallel runs, with paths and
numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

GROUP_MISSING = """\
> initializing tensor model parallel with size 1
> initializing pipeline model parallel with size 1
building GPT model ...
Traceback (most recent call last):
  File "/srv/lm/pretrain.py", line 210, in <module>
    pretrain(provider, model_provider, step)
  File "/srv/lm/lm/training.py", line 388, in setup_model
    model = get_model(model_provider_func)
  File "/opt/env/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 191, in _get_group_rank
    raise RuntimeError("The given group does not exist")
RuntimeError: The given group does not exist
"""

RANK_NOT_IN_GROUP = """\
[2025-03-02 11:04:19,220] [INFO] [partition_parameters.py:450:__exit__] finished initializing model
Traceback (most recent call last):
  File "/srv/lm/main.py", line 402, in <module>
    main()
  File "/opt/env/lib/python3.8/site-packages/deepspeed/runtime/zero/partition_parameters.py", line 350, in wrapper
    f(module, *args, **kwargs)
  File "/opt/env/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 409, in _get_group_rank
    raise RuntimeError(f"The global rank {global_rank} is not part of the group {group}") from None
RuntimeError: The global rank 0 is not part of the group <torch._C._distributed_c10d.ProcessGroupNCCL object at 0x7f11deadbeef>
"""

MESH_TOO_LARGE = """\
INFO: process rank 0 is bound to device 0
INFO: process rank 1 is bound to device 1
Traceback (most recent call last):
  File "/srv/auto/mesh_demo.py", line 40, in <module>
    mesh = DeviceMesh(ids, (2, 2), init_process_group=True)
  File "/opt/env/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 3290, in new_group
    raise RuntimeError(
RuntimeError: The new group's rank should be within the the world_size set by init_process_group
"""


def test_a_group_torch_does_not_hold_is_a_wrong_group_setup() -> None:
    diagnosis = diagnose_text("train.log", GROUP_MISSING)
    assert_reads(diagnosis, "hccl", first_error="The given group does not exist")
    assert not diagnosis.first_error.text.lstrip().startswith("raise")
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_rank_missing_from_the_group_it_was_handed_is_the_same_setup() -> None:
    diagnosis = diagnose_text("rank0.log", RANK_NOT_IN_GROUP)
    assert_reads(diagnosis, "hccl", first_error="is not part of the group")
    assert diagnosis.confidence < 0.8
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_group_reaching_past_the_world_is_the_launch_layout() -> None:
    diagnosis = diagnose_text("run.log", MESH_TOO_LARGE)
    assert_reads(
        diagnosis, "config", first_error="new group's rank should be within", beside=("hccl",)
    )
    assert any("parallel layout needs" in action for action in diagnosis.next_actions)


# torch 2.13 checks the ranks before building the group and names the first one past the world.
GROUPS_FOR_EIGHT = """\
2026-12-05 05:11:48,894 | INFO | tp_bisect | rank 1/4 started, building tensor-parallel groups
2026-12-05 05:11:48,900 | ERROR | tp_bisect | run failed: Rank 4 is out of range. Valid ranks are 0 to 3 (world_size=4)
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/tp/bisect.py", line 57, in main
[rank1]:     groups = [dist.new_group(list(range(i, i + tp))) for i in range(0, 8, tp)]
[rank1]:   File "/opt/env/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 5260, in _new_group_with_tag
[rank1]:     raise ValueError(
[rank1]: ValueError: Rank 4 is out of range. Valid ranks are 0 to 3 (world_size=4)
"""


def test_a_rank_named_past_the_world_is_the_launch_layout_too() -> None:
    diagnosis = diagnose_text("rank1.out", GROUPS_FOR_EIGHT)
    assert_reads(
        diagnosis,
        "config",
        first_error="Rank 4 is out of range. Valid ranks are 0 to 3",
        beside=("hccl",),
    )


def test_a_line_that_reports_membership_is_no_failure() -> None:
    text = "INFO: rank 3 is part of the group [2, 3]\nINFO: the new group's ranks are [0, 1]\n"
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.first_error is None


OWN_NCCL_BINDING = """\
Traceback (most recent call last):
  File "/srv/lm/train.py", line 22, in main
    lib.init_distributed(seed=0)
  File "/opt/env/lib/python3.9/site-packages/trainlib/nccl/__init__.py", line 80, in commInitRank
    return Communicator(C.ncclCommInitRank(uid, world_size, rank))
RuntimeError: NCCL Error: unhandled cuda error
"""


def test_nccls_string_behind_a_librarys_own_prefix_is_the_collective_layer() -> None:
    # docs/labelling.md#nccl-failures-named-by-the-call
    diagnosis = diagnose_text("rank3.log", OWN_NCCL_BINDING)
    assert_reads(diagnosis, "hccl", first_error="NCCL Error: unhandled cuda error")
    assert diagnosis.confidence >= 0.5
