"""NVSwitch machines whose fabric is not ready, read from what a job's own log keeps.

docs/labelling.md#nvlink-sharp-that-does-not-start: torch's copy of NCCL's NVLS refusal under
`Last error:` (without NCCL's prefix) is the refusal itself, the machine's label.
docs/labelling.md#a-gpu-system-that-is-not-ready: CUDA's 802 answer (`system not yet
initialized`) is a node whose fabric manager is not running or not matching the driver.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NVLS_UNDER_LAST_ERROR = """\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/opt/ci/tests/test_symm_mem.py", line 61, in test_multimem_all_reduce
[rank5]:     dist.barrier()
[rank5]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.28.9
[rank5]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank5]: Last error:
[rank5]: Failed to bind NVLink SHARP (NVLS) Multicast memory of size 8388608 : CUDA error 401 'the operation cannot be performed in the present state'.
[rank5]: This is usually caused by a system or configuration error in the Fabric Manager or NVSwitches.
[rank5]: Disable NVLS (NCCL_NVLS_ENABLE=0) if you wish to avoid this error in the future.
"""


def test_torchs_copy_of_the_nvls_refusal_reads_the_machine() -> None:
    diagnosis = diagnose_text("ci/rank5.log", NVLS_UNDER_LAST_ERROR)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to bind NVLink SHARP (NVLS) Multicast memory",
        rule="env.nccl_nvls_setup_failed",
    )


NVLS_COPY_OUT_OF_MEMORY = """\
[rank5]: Last error:
[rank5]: Failed to bind NVLink SHARP (NVLS) Multicast memory of size 8388608 : CUDA error 2 'out of memory'.
"""


def test_torchs_copy_of_an_nvls_allocation_out_of_memory_is_not_the_fabric() -> None:
    diagnosis = diagnose_text("ci/rank5.log", NVLS_COPY_OUT_OF_MEMORY)
    assert "env.nccl_nvls_setup_failed" not in rules_of(diagnosis)


SYSTEM_NOT_READY = """\
[rank1]:     work = group.allreduce([tensor], opts)
[rank1]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3
[rank1]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank1]: Last error:
[rank1]: Cuda failure 802 'system not yet initialized'
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/probe/allreduce_once.py", line 14, in <module>
"""


def test_cuda_802_under_nccl_is_a_node_whose_fabric_is_not_ready() -> None:
    diagnosis = diagnose_text("job/ranks.log", SYSTEM_NOT_READY)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Cuda failure 802 'system not yet initialized'",
        rule="env.cuda_system_not_ready",
        beside=("hccl",),
    )


TORCH_802 = """\
Traceback (most recent call last):
  File "/srv/train/main.py", line 33, in <module>
    torch.cuda.set_device(local_rank)
RuntimeError: CUDA error: system not yet initialized
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""


def test_torchs_own_802_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("job/rank3.log", TORCH_802)
    assert diagnosis.category == "driver_env"
    assert "env.cuda_system_not_ready" in rules_of(diagnosis)
