"""torch's MPI process group refusing what it was handed before any message is sent.

docs/labelling.md#config-driver_env-or-weight_load reads an MPI library that cannot take
device buffers as the backend and the tensors not fitting this build; #operator-installation-
or-platform-limit reads a collective the MPI group does not implement as a platform limit.
Fixtures follow the real formats with paths and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# FSDP's flat all-gather on the mpi backend: the group names the call it has no code for.
FLAT_ALLGATHER_ON_MPI = """\
  File "/opt/env/lib/python3.11/site-packages/torch/distributed/fsdp/_flat_param.py", line 1390, in _all_gather_flat_param
    dist.all_gather_into_tensor(padded_unsharded, sharded, self.process_group)
  File "/opt/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2897, in all_gather_into_tensor
    work = group._allgather_base(output_tensor, input_tensor, opts)
RuntimeError: no support for _allgather_base in MPI process group
"""

# GPU tensors handed to an MPI library built without device-buffer support.
GPU_TENSOR_ON_HOST_ONLY_MPI = """\
Traceback (most recent call last):
  File "/home/u/ddp_mpi.py", line 41, in <module>
    dist.all_reduce(grad)
  File "/opt/env/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 1320, in all_reduce
    work = default_pg.allreduce([tensor], opts)
RuntimeError: CUDA tensor detected and the MPI used doesn't have CUDA-aware MPI support
"""

# Counterexample: a note that the MPI build lacks a data type it works around is no refusal;
# the job then fails for its own reason, which the report must name.
NOTE_THEN_OOM = """\
note: no support for bf16 in this MPI build, falling back to fp32 buffers
RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 39.39 GiB total capacity; 37.50 GiB already allocated; 1.20 GiB free; 37.90 GiB reserved in total by PyTorch)
"""


def test_a_collective_the_mpi_group_lacks_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("job/rank0.log", FLAT_ALLGATHER_ON_MPI)
    assert_reads(
        diagnosis,
        "config",
        first_error="no support for _allgather_base in MPI process group",
        beside=("hccl",),
    )


def test_gpu_tensors_on_an_mpi_without_device_buffers_are_config() -> None:
    diagnosis = diagnose_text("job/rank1.log", GPU_TENSOR_ON_HOST_ONLY_MPI)
    assert_reads(diagnosis, "config", first_error="doesn't have CUDA-aware MPI support")


def test_a_note_about_a_missing_data_type_is_not_the_refusal() -> None:
    diagnosis = diagnose_text("job/rank1.log", NOTE_THEN_OOM)
    rules = rules_of(diagnosis)
    assert "cfg.backend_collective_unsupported" not in rules
    assert diagnosis.category == "oom", diagnosis.root_cause
