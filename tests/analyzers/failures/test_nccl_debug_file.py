"""NCCL's lines sent to a file of their own (`NCCL_DEBUG_FILE`) beside the program's console.

docs/labelling.md#nccls-reason-in-a-debug-file-of-its-own: the console keeps only the return
code that torch or the NCCL benchmarks report; the reason NCCL logged for it is in the debug
file, with no time on either side. The report yields to that reason as it does within one
block. A rank's log that carries NCCL's lines among its own is no such file. Fixtures follow a
two-GPU workstation run and a benchmark under a virtualised Linux, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

TORCH_CONSOLE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/dev/proj/train.py", line 41, in <module>
[rank0]:     dist.barrier()
[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
"""

SHM_DEBUG_FILE = """\
ws-7:4411:4411 [0] NCCL INFO Bootstrap : Using eth0:172.20.4.9<0>
ws-7:4411:4411 [0] NCCL INFO cudaDriverVersion 12040
ws-7:4411:4470 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct

ws-7:4411:4470 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Qp31xZ (size 5767168)
ws-7:4411:4470 [0] NCCL INFO transport/shm.cc:114 -> 2
ws-7:4411:4470 [0] NCCL INFO transport.cc:33 -> 2
"""

BENCH_CONSOLE = """\
# nThread 1 nGpus 2 minBytes 8 maxBytes 33554432 step: 2(factor) warmup iters: 5 iters: 20
#  Rank  0 Group  0 Pid   9120 on     ws-9 device  0 [0x01] NVIDIA GeForce RTX 3090
#  Rank  1 Group  0 Pid   9120 on     ws-9 device  1 [0x02] NVIDIA GeForce RTX 3090
ws-9: Test NCCL failure common.cu:1005 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '
 .. ws-9 pid 9120: Test failure common.cu:891
"""

TOPOLOGY_DEBUG_FILE = """\
ws-9:9120:9120 [0] NCCL INFO Bootstrap : Using eth0:172.31.8.2<0>

ws-9:9120:9120 [0] misc/ibvwrap.cc:66 NCCL WARN Failed to open libibverbs.so[.1]
ws-9:9120:9135 [0] NCCL INFO NCCL version 2.18.3+cuda12.1

ws-9:9120:9135 [0] graph/xml.cc:336 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:01/../../0000:01:00.0
ws-9:9120:9135 [0] NCCL INFO graph/xml.cc:469 -> 2
ws-9:9120:9135 [0] NCCL INFO graph/topo.cc:528 -> 2
"""


def test_a_torch_report_yields_to_the_reason_in_ncclS_debug_file() -> None:
    diagnosis = diagnose_files(
        {"run/console.log": TORCH_CONSOLE, "run/nccl_debug.ws-7.4411": SHM_DEBUG_FILE}
    )
    assert_reads(diagnosis, "driver_env", first_error="shared memory segment /dev/shm/nccl-Qp31xZ")


def test_a_benchmark_report_yields_to_the_topology_its_debug_file_names() -> None:
    diagnosis = diagnose_files(
        {"bench/all_reduce_perf.out": BENCH_CONSOLE, "bench/debug.ws-9.9120": TOPOLOGY_DEBUG_FILE}
    )
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Could not find real path of /sys/class/pci_bus/0000:01",
    )


def test_a_rank_log_with_its_own_lines_beside_ncclS_is_no_debug_file() -> None:
    rank_log = (
        "[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered\n"
        + SHM_DEBUG_FILE
    )
    diagnosis = diagnose_files({"run/console.log": TORCH_CONSOLE, "run/rank1.log": rank_log})
    cited = [diagnosis.first_error.text] if diagnosis.first_error else []
    assert not any("shared memory segment" in text for text in cited)


def test_a_console_that_holds_ncclS_lines_keeps_its_own_reading() -> None:
    """NCCL's warnings went to the console as well: the debug file is not where its reason
    for this report was written, and the report is read as usual."""
    console = (
        "ws-9:9120:9120 [0] init.cc:1402 NCCL WARN NCCL_P2P_LEVEL is deprecated,"
        " use NCCL_P2P_DISABLE instead\n" + BENCH_CONSOLE
    )
    diagnosis = diagnose_files(
        {"bench/all_reduce_perf.out": console, "bench/debug.ws-9.9120": TOPOLOGY_DEBUG_FILE}
    )
    assert diagnosis.first_error is not None
    assert "Test NCCL failure" in diagnosis.first_error.text


# An issue that quotes NCCL's warnings in a block of their own, cut down to the source place
# and the level word (the `host:pid:tid [dev]` prefix left out), beside the exception the
# program raised in another block. Values of our own.
BARE_TOPOLOGY_WARNINGS = """\
graph/search.cc:1127 NCCL WARN Could not find a path for pattern 3, falling back to simple order
graph/xml.cc:336 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:3b/../../0000:3b:00.0
"""

BARE_INTERNAL_ERROR = (
    "torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
    "ProcessGroupNCCL.cpp:2010, internal error - please report this issue to the NCCL "
    "developers, NCCL version 2.23.4\n"
)


def test_a_report_yields_to_ncclS_warnings_quoted_without_their_prefix() -> None:
    """docs/labelling.md#nccls-reason-in-a-debug-file-of-its-own: a paste that keeps only
    `<file>:<line> NCCL WARN ...` of NCCL's lines is still a block of NCCL's own lines."""
    diagnosis = diagnose_files(
        {
            "issue/1_nccl_warnings.log": BARE_TOPOLOGY_WARNINGS,
            "issue/2_crash.log": BARE_INTERNAL_ERROR,
        }
    )
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Could not find real path of /sys/class/pci_bus/0000:3b",
    )


def test_a_console_that_quotes_bare_nccl_warnings_keeps_its_own_reading() -> None:
    """The counterexample: NCCL's bare warning sits in the console beside the benchmark's
    report, so the debug file is not where the report's reason was written."""
    console = (
        "init.cc:1402 NCCL WARN NCCL_P2P_LEVEL is deprecated, use NCCL_P2P_DISABLE instead\n"
        + BENCH_CONSOLE
    )
    diagnosis = diagnose_files(
        {"bench/all_reduce_perf.out": console, "bench/debug.ws-9.9120": TOPOLOGY_DEBUG_FILE}
    )
    assert diagnosis.first_error is not None
    assert "Test NCCL failure" in diagnosis.first_error.text
