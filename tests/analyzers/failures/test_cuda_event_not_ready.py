"""A CUDA event query whose `not ready` answer was checked as a failure.

docs/labelling.md#an-event-query-checked-as-a-failure: CUDA answers 600 (`device not ready`,
cudaErrorNotReady) when work recorded before an event or on a stream has not finished yet.
It is a status to poll again, but a check macro around the query (the THC layer's
`THCudaCheck`, a library's own CUDA check) raises it as an error and the process usually
aborts. The failure is in waiting on an event: `stream_sync`, with `device_fault` (the abort
that ended the rank) beside it; the check's line is the first error, the `what()` and the
abort banner after it restate it. Fixtures are our own lines in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A rank of an Open MPI job, its lines tagged by mpirun, aborts in a data-parallel library's
# event check.
TAGGED_RANK_ABORT = """\
[1,3]<stderr>:THCudaCheck FAIL file=hvdlib/torch/ready_event.cc line=88 error=600 : device not ready
[1,3]<stderr>:terminate called after throwing an instance of 'std::runtime_error'
[1,3]<stderr>:  what():  cuda runtime error (600) : device not ready at hvdlib/torch/ready_event.cc:88
[1,3]<stderr>:[node-5:40211] *** Process received signal ***
[1,3]<stderr>:[node-5:40211] Signal: Aborted (6)
"""

# The runtime's own name for the code in a library's check.
NAMED_CODE = """\
Traceback (most recent call last):
  File "bench.py", line 41, in <module>
    wait_all(events)
RuntimeError: CUDA check failed at events.cu:57: cudaErrorNotReady (600): device not ready
"""

# Counterexample: a poll loop's debug line about the same answer is no failure.
POLLED = """\
DEBUG poll: cudaEventQuery returned 600 (device not ready), retrying in 1 ms
Traceback (most recent call last):
  File "train.py", line 12, in <module>
    import missing_pkg
ModuleNotFoundError: No module named 'missing_pkg'
"""


def test_the_check_of_a_not_ready_event_is_the_first_error() -> None:
    diagnosis = diagnose_text("rank3.log", TAGGED_RANK_ABORT)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="THCudaCheck FAIL file=hvdlib/torch/ready_event.cc line=88 error=600",
        rule="stream.cuda_event_not_ready",
        beside=("device_fault",),
    )


def test_the_runtimes_name_for_the_code_reads_the_same() -> None:
    diagnosis = diagnose_text("bench.log", NAMED_CODE)
    assert_reads(diagnosis, "stream_sync", first_error="cudaErrorNotReady (600)")


def test_a_polled_not_ready_answer_is_not_a_failure() -> None:
    diagnosis = diagnose_text("train.log", POLLED)
    assert diagnosis.category != "stream_sync"
