"""HIP runtime calls that RCCL reports failed, in its own words rather than NCCL's.

- `NCCL WARN hipIpcGetMemHandle failed : invalid argument`: the P2P transport could not export
  a buffer to its local peers while a communicator was built.
- `[FATAL ERROR]: HIP failure: '<answer>'`: the line RCCL's check macro prints as a HIP call
  fails; the engine's `unhandled cuda error` after it only restates it.
Both are the collective layer's failure; an `out of memory` answer stays a memory failure.
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FATAL_ONLY = """\
(EngineCore_DP0 pid=3310) INFO 07-11 09:12:40 [pynccl.py:70] vLLM is using nccl==2.27.7
mi3-07:3402:3402 [2] [FATAL ERROR]: HIP failure: 'the operation cannot be performed in the present state'
(Worker_TP2 pid=3402) ERROR 07-11 09:12:41 [multiproc_executor.py:585]     raise RuntimeError(f"NCCL error: {error_str}")
(Worker_TP2 pid=3402) ERROR 07-11 09:12:41 [multiproc_executor.py:585] RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
"""

IPC_EXPORT_REFUSED = """\
gfx-4:5210:5210 [1] /src/rccl/src/init.cc:213 NCCL WARN Missing "iommu=pt" from kernel command line which can lead to system instablity or hang!
gfx-4:5210:5288 [1] NCCL INFO /src/rccl/src/transport/p2p.cc:250 Cuda Alloc Size 6291456 pointer 0x7b10c4600000 flags 3
gfx-4:5210:5288 [1] /src/rccl/src/transport/p2p.cc:256 NCCL WARN hipIpcGetMemHandle failed : invalid argument
gfx-4:5210:5288 [1] [FATAL ERROR]: HIP failure: 'invalid argument'
[rank1]: RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
"""

FATAL_OUT_OF_MEMORY = """\
Capturing prefill buckets (bucket= 512 avail_mem= 0.04 GB):  41%
[3] [FATAL ERROR]: HIP failure: 'out of memory'
RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
"""


def test_fatal_hip_failure_is_the_first_error_before_the_engine_restates_it() -> None:
    diagnosis = diagnose_text("serve/server.log", FATAL_ONLY)
    assert_reads(diagnosis, "hccl", first_error="[FATAL ERROR]: HIP failure: 'the operation cannot")
    assert {"device_fault", "driver_env"} & {alt.category for alt in diagnosis.alternatives}


def test_refused_ipc_export_leads_and_the_iommu_advice_is_no_failure() -> None:
    diagnosis = diagnose_text("serve/server.log", IPC_EXPORT_REFUSED)
    assert_reads(
        diagnosis, "hccl", first_error="NCCL WARN hipIpcGetMemHandle failed : invalid argument"
    )


def test_fatal_out_of_memory_stays_a_memory_failure() -> None:
    diagnosis = diagnose_text("serve/server.log", FATAL_OUT_OF_MEMORY)
    assert_reads(diagnosis, "oom", first_error="HIP failure: 'out of memory'")


# RCCL's check macro reporting that its kernel has no function for one of the GPUs (two cards
# of different gfx targets in one process): the build does not fit the card, the collective
# is only where it surfaced.
FATAL_INVALID_DEVICE_FUNCTION = """\
mi-ws:8812:8812 [0] NCCL INFO comm 0x5612f0c0 rank 0 nranks 2 cudaDev 0 busId 3000 - Init COMPLETE
mi-ws:8812:8812 [1] [FATAL ERROR]: HIP failure: 'invalid device function'
"""


def test_fatal_hip_failure_invalid_device_function_is_the_build_not_the_collective() -> None:
    diagnosis = diagnose_text("repro/allreduce.log", FATAL_INVALID_DEVICE_FUNCTION)
    assert_reads(diagnosis, "config", first_error="HIP failure: 'invalid device function'")
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}
