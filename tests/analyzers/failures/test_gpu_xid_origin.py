"""An Xid the job caused points at the job; one of the board or the driver at the device.

NVIDIA's documents give Xids 13, 31 and 43 to the application (a kernel's bad address or
instruction, a channel stopped after the job's own error) on a GPU that stays healthy. Read
alone from the kernel log, such an Xid is the job's kernel failing: `operator`, with
`device_fault` beside it. When the job printed its own CUDA error for it, that line says how
the job failed and leads. An Xid of the board or driver stays `device_fault`; one that names an
earlier Xid as its cause is read by that one. docs/labelling.md#an-xid-the-job-caused-or-the-board
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

PAGE_FAULT = """\
Mar  3 02:14:09 gpu-node7 kernel: NVRM: Xid (PCI:0000:65:00): 31, pid=12345, name=python, Ch 0000000b, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_5 faulted @ 0x7f3a_2c000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ
Mar  3 02:14:09 gpu-node7 kernel: NVRM: Xid (PCI:0000:65:00): 43, pid=12345, name=python, Ch 00000008
"""

JOB_ILLEGAL_ADDRESS = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/train.py", line 88, in <module>
[rank0]:     loss.backward()
[rank0]: RuntimeError: CUDA error: an illegal memory access was encountered
"""

DOUBLE_BIT_ECC = """\
Mar  3 02:14:09 gpu-node7 kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=2211, name=python3, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.
"""

TORN_DOWN_AFTER_NVLINK = """\
kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=2207431, name=python3, Ch 00000001 caused by previous Xid 149
"""


def test_a_page_fault_xid_alone_is_the_jobs_kernel_with_the_device_beside_it() -> None:
    diagnosis = diagnose_text("kern.log", PAGE_FAULT)
    assert_reads(diagnosis, "operator", first_error="): 31, pid=12345")
    assert alternative_labels(diagnosis) == ["device_fault"]


def test_the_jobs_own_cuda_error_leads_over_the_xid_it_caused() -> None:
    diagnosis = diagnose_files({"kern.log": PAGE_FAULT, "rank0.log": JOB_ILLEGAL_ADDRESS})
    assert_reads(diagnosis, "device_fault", first_error="an illegal memory access was encountered")
    assert "operator" in alternative_labels(diagnosis)  # the Xid's reading of the same fault


def test_a_double_bit_ecc_xid_is_the_device() -> None:
    diagnosis = diagnose_text("kern.log", DOUBLE_BIT_ECC)
    assert diagnosis.category == "device_fault"
    assert "operator" not in alternative_labels(diagnosis)


def test_an_xid_torn_down_after_an_nvlink_xid_is_read_by_that_xid() -> None:
    diagnosis = diagnose_text("kern.log", TORN_DOWN_AFTER_NVLINK)
    assert_reads(diagnosis, "device_fault", first_error="caused by previous Xid 149")
