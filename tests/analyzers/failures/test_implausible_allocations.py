"""Allocation requests no machine could hold.

docs/labelling.md#an-allocation-no-machine-could-hold: a request of about a petabyte or more
(`Tried to allocate more than 1EB memory`, seven digits of GiB, a host allocator's twenty
digits of bytes) is a size computed wrong, not memory that ran out. The label stays `oom`, with
a confidence below 0.8 and `operator` and `shape_mismatch` as the alternatives. Counterexample:
a request a few dozen times the device, under the threshold, stays a plain `oom` read with the
allocator's usual confidence. Fixtures follow torch's and torch_npu's allocator messages with
values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

TRAINING_START = """\
[rank1]: 2026-07-02 10:11:12,100 [rank1] INFO step 0 started
"""

ABSURD = [
    "[rank1]: RuntimeError: NPU out of memory. Tried to allocate more than 1EB memory.",
    "[rank1]: torch.OutOfMemoryError: Tried to allocate more than 1EB memory.",
    "[rank1]: RuntimeError: NPU out of memory. Tried to allocate 8388608.00 GiB (NPU 1; 60.96 "
    "GiB total capacity; 2.20 GiB already allocated; 2.20 GiB current active; 57.10 GiB free)",
    "[rank1]: RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: "
    "can't allocate memory: you tried to allocate 18446744073709551552 bytes. Error code 12 "
    "(Cannot allocate memory)",
]


@pytest.mark.parametrize("line", ABSURD)
def test_a_request_no_machine_could_hold_is_a_size_computed_wrong(line: str) -> None:
    diagnosis = diagnose_text("logs/rank_1.log", TRAINING_START + line + "\n")
    assert diagnosis.category == "oom"
    assert diagnosis.confidence < 0.8
    assert {"operator", "shape_mismatch"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.first_error is not None
    assert "allocate" in diagnosis.first_error.text


@pytest.mark.parametrize(
    "line",
    [
        "[rank1]: RuntimeError: NPU out of memory. Tried to allocate 2048.00 GiB (NPU 1; 60.96 "
        "GiB total capacity; 2.20 GiB already allocated; 2.20 GiB current active; 57.10 GiB free)",
        "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 1 "
        "has a total capacity of 79.15 GiB of which 120.50 MiB is free.",
    ],
)
def test_a_large_but_possible_request_stays_a_plain_shortage(line: str) -> None:
    diagnosis = diagnose_text("logs/rank_1.log", TRAINING_START + line + "\n")
    assert diagnosis.category == "oom"
    assert diagnosis.confidence >= 0.8
    assert "shape_mismatch" not in {alt.category for alt in diagnosis.alternatives}
