"""Collective benchmarks and pre-flight diagnostics, read by what they name.

docs/labelling.md#nccl-failures-named-by-the-call: the benchmarks' own check of an NCCL call
(`Test NCCL failure common.cu:N '<reason>'`) is NCCL's failure, `hccl`, and yields to NCCL's
WARN line that says why.
docs/labelling.md#a-ranks-device-placement: their CUDA check refusing an ordinal is a launch
that asked for more GPUs than the node has, `config`.
docs/labelling.md#nvlink-sharp-that-does-not-start: the newer NVLS wording is the same refusal.
docs/labelling.md#a-pre-flight-check-that-fails: a DCGM diagnostic row that fails is the
device (hardware tests) or the host (deployment rows). Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ORDINAL = """\
# nThread 1 nGpus 4 minBytes 8 maxBytes 33554432 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
#
# Using devices
gpu-b7: Test CUDA failure common.cu:1032 'invalid device ordinal'
 .. gpu-b7 pid 40213: Test failure common.cu:893
"""


def test_a_benchmark_asking_for_a_gpu_the_node_lacks_reads_config() -> None:
    diagnosis = diagnose_text("bench/gpu-b7.log", ORDINAL)
    assert_reads(
        diagnosis,
        "config",
        first_error="'invalid device ordinal'",
        rule="cfg.rank_device_placement",
    )


NCCL_CHECK_ALONE = """\
# Using devices
#  Rank  0 Group  0 Pid  40213 on     gpu-b7 device  0 [0x1b] NVIDIA A100-SXM4-80GB
#  Rank  1 Group  0 Pid  40213 on     gpu-b7 device  1 [0x2c] NVIDIA A100-SXM4-80GB
gpu-b7: Test NCCL failure common.cu:1011 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '
 .. gpu-b7 pid 40213: Test failure common.cu:893
"""


def test_the_benchmarks_nccl_check_alone_is_the_first_error_and_reads_hccl() -> None:
    diagnosis = diagnose_text("bench/gpu-b7.log", NCCL_CHECK_ALONE)
    assert_reads(diagnosis, "hccl", first_error="Test NCCL failure common.cu:1011")
    # a system error is read by the rule for that answer of NCCL's
    assert "hccl.nccl_system_error" in rules_of(diagnosis)


NCCL_CHECK_AFTER_REASON = """\
gpu-b7:40213:40290 [1] misc/socket.cc:402 NCCL WARN Net : connecting to address  with family 17702 is neither AF_INET(2) nor AF_INET6(10)
gpu-b7:40213:40290 [1] NCCL INFO bootstrap.cc:261 -> 3
gpu-b7: Test NCCL failure common.cu:1011 'internal error / '
 .. gpu-b7 pid 40213: Test failure common.cu:893
"""


def test_the_benchmarks_nccl_check_yields_to_the_warn_that_says_why() -> None:
    diagnosis = diagnose_text("bench/gpu-b7.log", NCCL_CHECK_AFTER_REASON)
    assert_reads(diagnosis, "config", first_error="is neither AF_INET(2) nor AF_INET6(10)")


NVLS_BIND = """\
hgx-31:7712:7790 [2] transport/nvls.cc:402 (nvlsAllocateMem) NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory of size 4194304 : CUDA error 401 'the operation cannot be performed in the present state'
hgx-31: Test NCCL failure common.cu:1011 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '
"""


def test_the_newer_nvls_bind_refusal_reads_the_machine() -> None:
    diagnosis = diagnose_text("bench/hgx-31.log", NVLS_BIND)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to bind NVLink SHARP",
        rule="env.nccl_nvls_setup_failed",
    )


NVLS_OUT_OF_MEMORY = """\
hgx-31:7712:7790 [2] transport/nvls.cc:402 (nvlsAllocateMem) NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory of size 4194304 : CUDA error 2 'out of memory'
"""


def test_an_nvls_allocation_out_of_memory_is_not_the_fabric() -> None:
    diagnosis = diagnose_text("bench/hgx-31.log", NVLS_OUT_OF_MEMORY)
    assert "env.nccl_nvls_setup_failed" not in rules_of(diagnosis)


DCGM_PCIE_FAIL = """\
Successfully ran diagnostic for group.
+---------------------------+------------------------------------------------+
| Diagnostic                | Result                                         |
+===========================+================================================+
|-----  Deployment  --------+------------------------------------------------|
| Persistence Mode          | Pass                                           |
+-----  Integration  -------+------------------------------------------------+
| PCIe                      | Fail - GPU: 2                                  |
| Warning                   | GPU 2 host-to-device bandwidth below threshold |
+-----  Hardware  ----------+------------------------------------------------+
| GPU Memory                | Pass - All                                     |
"""


def test_a_failed_hardware_row_of_the_dcgm_table_reads_the_device() -> None:
    diagnosis = diagnose_text("preflight/dcgmi_diag.log", DCGM_PCIE_FAIL)
    assert_reads(diagnosis, "device_fault", first_error="| PCIe", rule="dev.dcgm_diag_test_failed")


DCGM_DEPLOYMENT_FAIL = """\
|-----  Deployment  --------+------------------------------------------------|
| Denylist                  | Pass                                           |
| Persistence Mode          | Fail - All                                     |
| Warning                   | Persistence mode for GPU 0 is disabled.        |
"""


def test_a_failed_deployment_row_reads_the_host() -> None:
    diagnosis = diagnose_text("preflight/dcgmi_diag.log", DCGM_DEPLOYMENT_FAIL)
    assert diagnosis.category == "driver_env"
    assert "env.dcgm_diag_deployment_failed" in rules_of(diagnosis)
    assert "dev.dcgm_diag_test_failed" not in rules_of(diagnosis)


DCGM_ALL_PASS = """\
| Persistence Mode          | Pass                                           |
| PCIe                      | Pass - All                                     |
| GPU Memory                | Pass - All                                     |
"""


def test_a_table_of_passes_names_no_dcgm_rule() -> None:
    diagnosis = diagnose_text("preflight/dcgmi_diag.log", DCGM_ALL_PASS)
    assert not {"dev.dcgm_diag_test_failed", "env.dcgm_diag_deployment_failed"} & rules_of(
        diagnosis
    )
