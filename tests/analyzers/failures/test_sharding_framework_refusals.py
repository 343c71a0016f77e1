"""Refusals of the sharding and data-parallel frameworks that sit on top of torch.distributed.

A trainer that asks its device mesh for a dimension the chosen degrees never created
(docs/labelling.md#a-mesh-dimension-the-layout-never-made), ColossalAI's ZeRO bucket that is
smaller than one tensor (docs/labelling.md#a-zero-bucket-smaller-than-one-parameter) and
FairScale's ShardedDDP finding a bucket that was never sent
(docs/labelling.md#ddps-reducer-refuses-a-step) are options that do not fit the model or
layout: `config`. Horovod warning that only some ranks submitted a step's tensors is a stall
(docs/labelling.md#ranks-that-horovod-saw-submit-only-part-of-a-step): `hang`. Fixtures are
written in the frameworks' formats with paths, names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MESH_DIM_ABSENT = """\
[rank0]:[titan] 2026-03-14 08:02:11,504 - root - INFO - Building 2-D device mesh with ['dp_shard', 'tp'], [4, 2]
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/titan/torchtitan/train.py", line 611, in <module>
[rank2]:     trainer = Trainer(config)
[rank2]:   File "/srv/titan/torchtitan/models/moe/parallelize.py", line 87, in parallelize_moe
[rank2]:     ep_mesh = world_mesh["ep"]
[rank2]:   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/device_mesh.py", line 744, in __getitem__
[rank2]:     raise KeyError(
[rank2]: KeyError: ("Mesh dimension 'ep' does not exist.", "Available mesh dimensions are: mesh_dim_names=('dp_shard', 'tp')")
E0314 08:02:14.902000 7310 torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) local_rank: 2 (pid: 7325) of binary: /opt/venv/bin/python
"""

MESH_TABLE_REFUSAL = """\
traceback : Traceback (most recent call last):
    File "/srv/titan/torchtitan/train.py", line 260, in __init__
      model = self.train_spec.parallelize_fn(model, parallel_dims, job_config)
    File "/srv/titan/torchtitan/models/dense/parallelize.py", line 121, in parallelize_dense
      cp_mesh = parallel_dims.get_mesh("cp")
    File "/srv/titan/torchtitan/distributed/parallel_dims.py", line 280, in get_mesh
      raise ValueError(
  ValueError: Mesh 'cp' is not available. Ensure the corresponding parallelism dimension is enabled (size > 1).
"""

ZERO_BUCKET = """\
[03/02/26 11:40:12] INFO     colossalai - colossalai - INFO: Booster init max CUDA memory: 16088.23 MB
Traceback (most recent call last):
  File "/work/sft/train.py", line 388, in main
    optimizer.step()
  File "/opt/conda/lib/python3.10/site-packages/colossalai/zero/low_level/low_level_optim.py", line 702, in step
    bucket_store.add_to_bucket(param_to_gather, write_back_tensor=working_param)
RuntimeError: The param bucket max size 25165824 is exceededby tensor (size 262668288)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/work/sft/train.py", line 441, in <module>
    main()
"""

SHARDED_DDP_BUCKET = """\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/home/asr/recipes/train_sharded.py", line 154, in <module>
[rank5]:     step(model, optimizer, batch)
[rank5]:   File "/opt/venv/lib/python3.9/site-packages/fairscale/nn/data_parallel/sharded_ddp.py", line 222, in forward
[rank5]:     self.refresh_trainable()
[rank5]: AssertionError: A bucket failed to be sent, probably unused parameters.Either remove the unused parameter or de-activate ShardedDDP buckets -set reduce_buffer_size to 0-
"""

HOROVOD_STALL = """\
[1,0]<stdout>:Train Epoch 12:  40% 400/1000 [08:11<12:16, 1.23s/it, loss=1.374]
[1,0]<stderr>:WARNING: One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder of ranks for more than 60 seconds. This may indicate that different ranks are trying to submit different tensors or that only subset of ranks is submitting tensors, which will cause deadlock. Stalled ops: allreduce.encoder.proj.weight [ready ranks: 0, 2, 3], allreduce.encoder.proj.bias [ready ranks: 0, 2, 3]
"""

HOROVOD_STALL_AFTER_ERROR = """\
[1,1]<stderr>:RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 15.78 GiB total capacity; 13.02 GiB already allocated; 1.01 GiB free; 13.40 GiB reserved in total by PyTorch)
[1,0]<stderr>:WARNING: One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder of ranks for more than 60 seconds. Stalled ops: allreduce.head.weight [ready ranks: 0, 2, 3]
"""


def test_a_mesh_dimension_the_degrees_never_created_is_the_layout() -> None:
    diagnosis = diagnose_text("rank2.log", MESH_DIM_ABSENT)
    assert_reads(
        diagnosis,
        "config",
        first_error="Mesh dimension 'ep' does not exist.",
        rule="cfg.device_mesh_dim_missing",
    )
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_a_trainer_refusing_a_disabled_mesh_in_its_own_words_is_the_layout() -> None:
    diagnosis = diagnose_text("error.log", MESH_TABLE_REFUSAL)
    assert_reads(diagnosis, "config", first_error="Mesh 'cp' is not available")


def test_a_zero_bucket_smaller_than_one_tensor_is_the_option() -> None:
    diagnosis = diagnose_text("train.log", ZERO_BUCKET)
    assert_reads(
        diagnosis,
        "config",
        first_error="param bucket max size 25165824",
        rule="cfg.zero_param_bucket_too_small",
    )


def test_a_sharded_ddp_bucket_never_sent_reads_like_ddps_reducer() -> None:
    diagnosis = diagnose_text("rank5.log", SHARDED_DDP_BUCKET)
    assert_reads(
        diagnosis,
        "config",
        first_error="A bucket failed to be sent",
        rule="cfg.ddp_reducer_refused",
    )


def test_horovod_seeing_part_of_the_ranks_submit_is_a_stall() -> None:
    diagnosis = diagnose_text("mpirun.log", HOROVOD_STALL)
    assert_reads(
        diagnosis, "hang", first_error="by subset of ranks", rule="hang.horovod_stalled_ops"
    )


def test_an_error_before_horovods_stall_warning_wins() -> None:
    diagnosis = diagnose_text("mpirun.log", HOROVOD_STALL_AFTER_ERROR)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
