"""A parallel layout that does not fit what the job enabled on it.

Two refusals come before any collective runs. DeviceMesh refuses to hand out "the" process
group of a mesh with several dimensions to code written for one
(docs/labelling.md#a-mesh-asked-for-one-group-while-it-has-several-dimensions), and symmetric
memory refuses a group in which two ranks allocated on one GPU
(docs/labelling.md#a-ranks-device-placement). On its NCCL backend symmetric memory also needs
the group's communicator to exist before a rendezvous registers a window on it
(docs/labelling.md#symmetric-memory-registered-before-its-nccl-communicator). All are `config`;
fixtures follow torchrun's
`[rankN]:` tracebacks with paths and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

MESH_GROUP_ASKED = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/train/pretrain.py", line 402, in <module>
[rank1]:     trainer.step(batch)
[rank1]:   File "/srv/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param.py", line 701, in all_gather_inputs
[rank1]:     ) = sharded_local_tensor.fsdp_pre_all_gather(self.mesh_info.mesh)
[rank1]:   File "/srv/venv/lib/python3.11/site-packages/quantlib/fp8/fsdp_hooks.py", line 97, in fsdp_pre_all_gather
[rank1]:     group = mesh.get_group()
[rank1]:   File "/srv/venv/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 712, in get_group
[rank1]:     raise RuntimeError(
[rank1]: RuntimeError: ('Found the DeviceMesh have 2 dimensions', 'Optional kwarg `mesh_dim` needs to be specified when device_mesh.ndim > 1.', 'If you want to get the list of all the ProcessGroups in the DeviceMesh,please use `get_all_groups()` instead.')
"""

SYMM_MEM_SAME_GPU = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/home/bench/allreduce_bench.py", line 88, in <module>
[rank2]:     run(args)
[rank2]:   File "/home/bench/allreduce_bench.py", line 61, in run
[rank2]:     handle = symm_mem.rendezvous(buf, dist.group.WORLD.group_name)
[rank2]:   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/_symmetric_memory/__init__.py", line 1702, in rendezvous
[rank2]:     return _SymmetricMemory.rendezvous(tensor, group_name)
[rank2]: RuntimeError: CUDASymmetricMemoryAllocator::rendezvous: detected allocations from overlapping devices from different ranks.
E0305 14:02:11.318000 5120 torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) local_rank: 2 (pid: 5133) of binary: /opt/venv/bin/python
"""


def test_a_one_dimensional_group_asked_of_a_two_dimensional_mesh_is_the_layout() -> None:
    diagnosis = diagnose_text("rank1.log", MESH_GROUP_ASKED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Found the DeviceMesh have 2 dimensions",
        rule="cfg.device_mesh_dim_unspecified",
    )
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_two_ranks_on_one_gpu_at_a_symmetric_memory_rendezvous_is_the_placement() -> None:
    diagnosis = diagnose_text("launcher.log", SYMM_MEM_SAME_GPU)
    assert_reads(
        diagnosis,
        "config",
        first_error="allocations from overlapping devices",
        rule="cfg.symm_mem_overlapping_devices",
    )
    assert any(alt.category == "hccl" for alt in diagnosis.alternatives)


# A rendezvous on the NCCL backend that comes before the group's first collective, with no
# device given to the group: NCCL refuses the window and torch names the segment.
WINDOW_BEFORE_COMMUNICATOR = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/kernels/bench_symm.py", line 41, in <module>
[rank2]:     handle = symm_mem.rendezvous(buf, dist.group.WORLD.group_name)
[rank2]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/symm_mem/NCCLSymmetricMemory.cu:181,
[rank2]: invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.29.3
[rank2]: Failed to window register segment with ptr 0x7f5c3a000000, size 4194304 on rank 2
"""

# A newer release refuses the same order before asking NCCL.
IMPLICIT_COMMUNICATOR_REFUSED = """\
[rank0]:   File "/srv/kernels/bench_symm.py", line 41, in <module>
[rank0]:     handle = symm_mem.rendezvous(buf, dist.group.WORLD.group_name)
[rank0]: torch.distributed.DistBackendError: Register symmetric memory with an implicitly created nccl comm is not supported. Please create nccl comm explicitly first.
"""


# torchcomms' window wrapper finding, at the first put of a step, that the handle the backend
# returned at registration is empty; the rank then stops and its peers are left waiting.
WINDOW_HANDLE_EMPTY = """\
I0412 09:30:02.114201 88120 train.py:311] step 1 starting
E0412 09:30:11.204417 88120 TorchCommWindowNCCLX.cpp:141] [TorchCommWindowNCCLX]: NCCLX window is null
[rank0]:[E412 09:40:11.512003120 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=41, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.
"""

WINDOW_HANDLE_EMPTY_QUOTED = """\
[TorchCommWindowNCCLX]: NCCLX window is null
"""

WINDOW_REGISTERED = """\
I0412 09:30:01.998311 88120 TorchCommWindowNCCLX.cpp:96] [TorchCommWindowNCCLX]: registered window 0x7f31c8000000 (268435456 bytes) on rank 2
I0412 09:30:02.114201 88120 train.py:311] step 1 starting
"""


def test_a_window_registered_before_the_communicator_exists_is_the_set_up_order() -> None:
    diagnosis = diagnose_text("rank2.log", WINDOW_BEFORE_COMMUNICATOR)
    assert_reads(
        diagnosis,
        "config",
        first_error="Failed to window register segment",
        rule="cfg.nccl_window_register_refused",
    )
    assert any(alt.category == "hccl" for alt in diagnosis.alternatives)


def test_the_newer_refusal_of_an_implicit_communicator_is_read_alike() -> None:
    diagnosis = diagnose_text("rank0.log", IMPLICIT_COMMUNICATOR_REFUSED)
    assert diagnosis.category == "config"
    assert "cfg.nccl_window_register_refused" in rules_of(diagnosis)


def test_a_bare_invalid_argument_without_the_segment_stays_the_collective_layer() -> None:
    head = WINDOW_BEFORE_COMMUNICATOR.rsplit("[rank2]: Failed", 1)[0]
    diagnosis = diagnose_text("rank2.log", head)
    assert diagnosis.category == "hccl"
    assert "cfg.nccl_window_register_refused" not in rules_of(diagnosis)


def test_a_window_whose_registration_returned_no_handle_is_a_setting() -> None:
    diagnosis = diagnose_text("rank2.log", WINDOW_HANDLE_EMPTY)
    assert_reads(
        diagnosis, "config", first_error="window is null", rule="cfg.comm_window_handle_null"
    )
    assert any(alt.category == "hccl" for alt in diagnosis.alternatives)


def test_the_empty_window_quoted_alone_is_still_read() -> None:
    diagnosis = diagnose_text("report.txt", WINDOW_HANDLE_EMPTY_QUOTED)
    assert diagnosis.category == "config"
    assert "cfg.comm_window_handle_null" in rules_of(diagnosis)


def test_a_registered_window_is_no_failure() -> None:
    diagnosis = diagnose_text("rank2.log", WINDOW_REGISTERED)
    assert "cfg.comm_window_handle_null" not in rules_of(diagnosis)
