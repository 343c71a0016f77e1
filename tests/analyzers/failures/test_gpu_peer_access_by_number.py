"""NCCL's report of CUDA refusing peer access, read by the runtime's number.

docs/labelling.md#config-driver_env-or-weight_load: NCCL writes a failed CUDA call as
`Cuda failure <number> '<runtime text>'`. Number 217 is cudaErrorPeerAccessUnsupported: the
pair of GPUs has no peer path on this host (a hypervisor, PCIe through ACS or an IOMMU), which
NCCL's P2P and shared-memory transports both ask for. When a document wraps the runtime's text
onto the next line, or the copy cut it, the number still says it: `driver_env`, with `config`
beside it (the job can stop asking for the path), and the WARN line is the first error. Other
numbers keep their own readings.

The fixtures are written in NCCL's WARN line format, with our own hosts and pids.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_the_number_alone_is_the_refused_peer_path() -> None:
    text = "gpu-a7:30211:30290 [2] transport/p2p.cc:275 NCCL WARN Cuda failure 217\n"
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "driver_env", first_error="Cuda failure 217", beside=["config"])


def test_the_text_wrapped_below_the_number_reads_the_same() -> None:
    text = (
        "transport/shm.cc:612 NCCL WARN Cuda failure 217\n"
        "  'peer access is not supported between these two devices'\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "driver_env", first_error="Cuda failure 217")


def test_another_number_keeps_its_reading() -> None:
    text = "gpu-a7:30211:30290 [2] include/alloc.h:103 NCCL WARN Cuda failure 2 'out of memory'\n"
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "oom", first_error="Cuda failure 2 'out of memory'")
