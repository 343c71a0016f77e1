"""A kernel's bad access as CUDA's memory checker reports it.

compute-sanitizer (cuda-memcheck in older toolkits) runs the program under its checker and, for
each access a kernel made outside the memory it may touch, prints a report under its own
`=========` prefix: what was accessed and how wide (`Invalid __global__ read of size 4 bytes`),
then the kernel, the thread and block, and why the address is bad. No error word is on the
report's first line. Run without the checker the same access ends as CUDA's `an illegal memory
access was encountered`, so the report is that device fault, named earlier and more precisely:
`device_fault`, the report's first line the first error, with `operator` beside it (a kernel
with a bad address). When the faulting kernel is a collective library's own, `hccl` is offered
too. docs/labelling.md#a-kernel-access-a-memory-checker-reports
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A two-rank barrier run under the checker: the collective's kernel read past a one-byte buffer.
COLLECTIVE_KERNEL_READ = """\
========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at ncclDevKernel_AllReduce_Sum_u8_RING_LL(ncclDevComm *, unsigned long, ncclWork *)+0x2b40
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f21c0400000 is out of bounds
=========     and is inside the nearest allocation at 0x7f21c0400000 of size 1 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========     Host Frame: [0x2f1a83]
=========                in /lib/x86_64-linux-gnu/libcuda.so.1
"""

# A model's own kernel wrote out of its shared-memory tile; the summary closes the report.
OWN_KERNEL_SHARED_WRITE = """\
epoch 0 step 12 loss 2.4410
========= CUDA-MEMCHECK
========= Invalid __shared__ write of size 16 bytes
=========     at 0x000004c0 in fused_rope_kernel(float*, float const*, int)
=========     by thread (96,0,0) in block (3,0,0)
=========     Address 0x00004010 is out of bounds
=========
========= ERROR SUMMARY: 1 error
"""

MISALIGNED_LOCAL = """\
========= Misaligned Shared or Local Address
=========     at 0x00000a10 in pack_tiles(int*)
=========     by thread (7,0,0) in block (0,0,0)
"""

# The checker's own start-up and a clean run's summary are no failure.
CLEAN_RUN = """\
========= COMPUTE-SANITIZER
step 100 loss 1.2034
========= ERROR SUMMARY: 0 errors
"""

# Words about such reports in a note, not a report.
NOTE_ABOUT_REPORTS = """\
[2026-05-02 10:01:12] INFO run under compute-sanitizer to see where an invalid __global__ read happens
step 1 loss 3.001
"""


def test_a_checker_report_on_a_collective_kernel_is_the_device_fault() -> None:
    diagnosis = diagnose_text("run/compute-sanitizer.log", COLLECTIVE_KERNEL_READ)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Invalid __global__ read of size 4 bytes",
        beside=("hccl",),
    )


def test_a_checker_report_on_a_model_kernel_offers_the_operator() -> None:
    diagnosis = diagnose_text("train/memcheck.log", OWN_KERNEL_SHARED_WRITE)
    assert_reads(diagnosis, "device_fault", first_error="Invalid __shared__ write of size 16 bytes")
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert "operator" in alternatives
    assert "hccl" not in alternatives


def test_a_misaligned_access_report_is_the_device_fault() -> None:
    diagnosis = diagnose_text("train/memcheck.log", MISALIGNED_LOCAL)
    assert_reads(diagnosis, "device_fault", first_error="Misaligned Shared or Local Address")


def test_a_clean_checker_run_reports_no_device_fault() -> None:
    diagnosis = diagnose_text("train/memcheck.log", CLEAN_RUN)
    assert diagnosis.category != "device_fault", diagnosis.root_cause


def test_a_clean_summary_is_not_an_error_line() -> None:
    diagnosis = diagnose_text("train/memcheck.log", CLEAN_RUN)
    assert diagnosis.first_error is None, diagnosis.first_error


def test_a_note_that_names_the_report_is_no_fault() -> None:
    diagnosis = diagnose_text("train/train.log", NOTE_ABOUT_REPORTS)
    assert diagnosis.category != "device_fault", diagnosis.root_cause
