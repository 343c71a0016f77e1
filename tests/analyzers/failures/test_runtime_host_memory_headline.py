"""The runtime's error-manager headline for host memory it could not get.

`Resource_Error_Insufficient_Host_Memory(ELxxxx): Failed to allocate N bytes host memory
requested by the RUNTIME module.` says the host side of an allocation failed (pinned memory
for a staging buffer, an offloaded shard). Driver-family codes without an entry of their own
read as a device fault; this headline names host memory, so it is `oom`. Counterexample: a
headline of another driver-family code that names the device keeps its own reading, and a
line that only reports free host memory is no failure. Fixtures are written here in the real
shapes with their own values.

docs/labelling.md#host-memory-the-runtime-could-not-get
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

HOST_MEMORY_HEADLINE = """\
(Worker_SP2 pid=511) [PID: 511] 2026-07-03-14:22:09.401.118 Resource_Error_Insufficient_Host_Memory(EL0018): Failed to allocate 268435456 bytes host memory requested by the RUNTIME module.
(Worker_SP2 pid=511)         Possible Cause: Allocation failed due to insufficient host memory.
(Worker_SP2 pid=511)         Solution: Ensure that the required memory is available.
"""

DEVICE_ABSENT_HEADLINE = """\
[PID: 511] 2026-07-03-14:22:09.401.118 Device_Error(EL0001): The device is absent or abnormal.
"""

FREE_HOST_MEMORY_NOTE = """\
INFO 07-03 14:22:09 [offload.py:40] host memory available for offload: 412 GiB (requested by the RUNTIME module: 64 GiB)
"""


def test_the_runtime_host_memory_headline_is_an_out_of_memory() -> None:
    diagnosis = diagnose_text("serve/worker_sp2.log", HOST_MEMORY_HEADLINE)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Resource_Error_Insufficient_Host_Memory(EL0018)",
        rule="oom.runtime_host_memory_insufficient",
    )
    assert "device_fault" not in alternative_labels(diagnosis)


def test_a_driver_headline_that_names_the_device_keeps_its_reading() -> None:
    diagnosis = diagnose_text("serve/worker_sp2.log", DEVICE_ABSENT_HEADLINE)
    assert diagnosis.category == "device_fault"


def test_a_note_of_free_host_memory_is_no_failure() -> None:
    diagnosis = diagnose_text("serve/offload.log", FREE_HOST_MEMORY_NOTE)
    assert "oom.runtime_host_memory_insufficient" not in rules_of(diagnosis)
