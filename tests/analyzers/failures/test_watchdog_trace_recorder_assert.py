"""A process-group watchdog that dies on its trace recorder's own bookkeeping check.

torch's NCCL process group keeps a ring of its recent collectives (the flight recorder, in
`TraceUtils.h` and later `FlightRecorder*.hpp`), and the watchdog thread updates it as work
items start and finish. When the recorder's own check of that bookkeeping fails, the watchdog
ends with the internal assertion as its exception (`NCCL watchdog thread terminated with
exception: <condition> INTERNAL ASSERT FAILED at ".../c10d/TraceUtils.h":N`). No collective
failed and no device or link is named: torch's recorder stopped the process, so the label is
`other`, with `hccl` (the process group's watchdog took the rank down) and `config` (the
recorder turned off, or a torch release without the fault) beside it
(docs/labelling.md#a-watchdog-that-dies-on-its-trace-recorders-check). Excerpts follow the
real shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "hccl.trace_recorder_assert"

RECORDER_ASSERT = """\
node-7:51120:51388 [1] NCCL INFO Channel 05/16 :    0   1
node-7:51120:51388 [1] NCCL INFO Connected all rings
[rank1]:[E1104 02:17:45.112093311 ProcessGroupNCCL.cpp:1182] [Rank 1] NCCL watchdog thread terminated with exception: entry->id_ == id INTERNAL ASSERT FAILED at "/build/pytorch/torch/csrc/distributed/c10d/TraceUtils.h":412, please report a bug to PyTorch.
Exception raised from retire_id at /build/pytorch/torch/csrc/distributed/c10d/TraceUtils.h:412 (most recent call first):
"""

NEWER_RECORDER_ASSERT = """\
[rank3]:[E0219 11:40:02.774310028 ProcessGroupNCCL.cpp:1895] [PG ID 1 PG GUID 3 Rank 3] Process group watchdog thread terminated with exception: next_ < max_entries_ INTERNAL ASSERT FAILED at "/opt/torch/torch/csrc/distributed/c10d/FlightRecorderDetail.hpp":233, please report a bug to PyTorch.
"""

COLLECTIVE_TIMEOUT = """\
[rank1]:[E1104 02:17:45.112093311 ProcessGroupNCCL.cpp:1182] [Rank 1] NCCL watchdog thread terminated with exception: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600114 milliseconds before timing out.
"""

RECORDER_NOTICE = """\
[rank0]:[I1104 02:10:01.004411210 ProcessGroupNCCL.cpp:911] [Rank 0] NCCL flight recorder enabled: TORCH_NCCL_TRACE_BUFFER_SIZE=2000, entries kept in TraceUtils.h ring
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.02 GiB is free.
"""


def test_the_recorders_assertion_in_the_watchdog_is_torchs_own_failure() -> None:
    diagnosis = diagnose_text("train/rank1.log", RECORDER_ASSERT)
    assert_reads(
        diagnosis,
        "other",
        first_error="INTERNAL ASSERT FAILED",
        rule=RULE,
        beside=("hccl", "config"),
    )


def test_the_newer_recorder_files_are_read_the_same_way() -> None:
    diagnosis = diagnose_text("train/rank3.log", NEWER_RECORDER_ASSERT)
    assert_reads(diagnosis, "other", first_error="FlightRecorderDetail.hpp", rule=RULE)


def test_a_watchdog_that_caught_a_timeout_keeps_the_collective_reading() -> None:
    diagnosis = diagnose_text("train/rank1.log", COLLECTIVE_TIMEOUT)
    assert diagnosis.category == "hccl"
    assert RULE not in rules_of(diagnosis)


def test_a_notice_that_the_recorder_is_on_is_no_failure() -> None:
    diagnosis = diagnose_text("train/rank0.log", RECORDER_NOTICE)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
    assert RULE not in rules_of(diagnosis)
