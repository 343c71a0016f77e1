"""NCCL failures whose fix is outside the collective layer, and NCCL's start-up probes.

A CUDA answer inside NCCL is read as the collective layer's failure unless it says more: a
kernel lookup that finds nothing (`named symbol not found`) is a NCCL build without this
card's architecture (`config`), and a failure in the NVLink SHARP transport's source is the
node's NVSwitch fabric (`driver_env`, docs/labelling.md#nvlink-sharp-that-does-not-start).
A socket NCCL cannot create for want of an address family is the missing interface (`hccl`),
and NCCL's note that the InfiniBand library is absent is a probe, not the failure. Values of
our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SYMBOL_MISSING = """\
node-7:9120:9120 [2] NCCL INFO cudaDriverVersion 12080
NCCL version 2.19.3+cuda12.2

node-7:9120:9188 [2] enqueue.cc:61 NCCL WARN Cuda failure 'named symbol not found'

node-7:9120:9188 [2] enqueue.cc:49 NCCL WARN Cuda failure 'named symbol not found'
node-7:9120:9188 [2] NCCL INFO init.cc:1402 -> 1
torch.distributed.DistBackendError: NCCL error in: /src/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3
"""


def test_a_kernel_lookup_nccl_cannot_satisfy_is_its_build() -> None:
    diagnosis = diagnose_text("rank2.log", SYMBOL_MISSING)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "enqueue.cc:61 NCCL WARN Cuda failure 'named symbol not found'" in (
        diagnosis.first_error.text
    )
    assert "cfg.nccl_kernel_symbol_missing" in rules_of(diagnosis)


def test_another_cuda_answer_inside_nccl_stays_the_collective_layer() -> None:
    text = SYMBOL_MISSING.replace("named symbol not found", "invalid argument")
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "hccl"
    assert "cfg.nccl_kernel_symbol_missing" not in rules_of(diagnosis)


NVLS_SETUP = """\
h100-b2:51020:51020 [0] NCCL INFO NCCL version 2.20.5+cuda12.3
h100-b2:51020:51088 [3] transport/nvls.cc:212 NCCL WARN Cuda failure 1 'invalid argument'
h100-b2:51020:51088 [3] NCCL INFO transport/nvls.cc:330 -> 1
h100-b2:51020:51086 [1] transport/nvls.cc:212 NCCL WARN Cuda failure 1 'invalid argument'
h100-b2:51020:51086 [1] NCCL INFO init.cc:1290 -> 1
h100-b2: Test NCCL failure common.cu:1005 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '
"""


def test_nvlink_sharp_that_does_not_start_is_the_node() -> None:
    diagnosis = diagnose_text("all_reduce_perf.log", NVLS_SETUP)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="transport/nvls.cc:212 NCCL WARN Cuda failure 1",
        rule="env.nccl_nvls_setup_failed",
    )


def test_nvlink_sharp_failure_pasted_without_its_closing_quote_is_the_node() -> None:
    # A paste (an issue title, a copied line) that lost the closing quote of NCCL's runtime
    # string is still the same refusal from the nvls transport.
    text = NVLS_SETUP.replace(
        "Cuda failure 1 'invalid argument'", "Cuda failure 999 'unknown error"
    )
    diagnosis = diagnose_text("all_reduce_perf.log", text)
    assert diagnosis.category == "driver_env"
    assert "env.nccl_nvls_setup_failed" in rules_of(diagnosis)


def test_nvlink_sharp_out_of_memory_without_its_closing_quote_stays_memory() -> None:
    text = NVLS_SETUP.replace("Cuda failure 1 'invalid argument'", "Cuda failure 2 'out of memory")
    diagnosis = diagnose_text("all_reduce_perf.log", text)
    assert "env.nccl_nvls_setup_failed" not in rules_of(diagnosis)


def test_nvlink_sharp_out_of_memory_stays_memory() -> None:
    text = NVLS_SETUP.replace("Cuda failure 1 'invalid argument'", "Cuda failure 2 'out of memory'")
    diagnosis = diagnose_text("all_reduce_perf.log", text)
    assert diagnosis.category == "oom"
    assert "env.nccl_nvls_setup_failed" not in rules_of(diagnosis)


SOCKET_FAMILY = """\
nThread 1 nGpus 4 minBytes 8 maxBytes 33554432 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
box-2:3171:3171 [0] misc/ibvwrap.cu:61 WARN Failed to open libibverbs.so[.1]
box-2:3171:3171 [0] include/socket.h:302 WARN Socket creation failed : Address family not supported by protocol
NCCL failure common.cu:790 'unhandled system error'
"""


def test_a_socket_nccl_cannot_create_is_the_missing_interface() -> None:
    diagnosis = diagnose_text("all_reduce_perf.log", SOCKET_FAMILY)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Socket creation failed : Address family",
        rule="hccl.comm_interface_not_found",
    )


def test_a_socket_refused_for_open_files_is_not_the_interface() -> None:
    text = SOCKET_FAMILY.replace("Address family not supported by protocol", "Too many open files")
    diagnosis = diagnose_text("all_reduce_perf.log", text)
    assert "hccl.comm_interface_not_found" not in rules_of(diagnosis)


def test_the_infiniband_library_probe_alone_is_no_error() -> None:
    diagnosis = diagnose_text(
        "all_reduce_perf.log", "\n".join(SOCKET_FAMILY.splitlines()[:2]) + "\n"
    )
    assert diagnosis.first_error is None or "libibverbs" not in diagnosis.first_error.text
