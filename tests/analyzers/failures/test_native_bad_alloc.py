"""A C++ allocation the host refused: `std::bad_alloc`, as torch raises it and as an uncaught
one ends the process (docs/labelling.md#a-native-allocation-refused-with-bad_alloc).
Fixtures are a rank's own log and its peer's in the real shapes, with their own values."""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files

RANK4 = """\
2026-12-04 16:51:15,842 [rank4] INFO  norm passed
2026-12-04 16:51:16,031 [rank4] ERROR model run failed: std::bad_alloc
Traceback (most recent call last):
  File "/srv/job/infer.py", line 140, in inject
    torch.zeros(1).view(sizes)
RuntimeError: std::bad_alloc
"""

RANK0 = """\
2026-12-04 16:51:15,845 [rank0] INFO  norm passed
2026-12-04 16:51:15,861 [rank0] INFO  attention passed
2026-12-04 16:51:16,240 [rank0] ERROR model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:31337. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF!
"""

UNCAUGHT = """\
terminate called after throwing an instance of 'std::bad_alloc'
  what():  std::bad_alloc
"""


def test_a_rank_whose_allocation_threw_bad_alloc_ran_out_of_memory() -> None:
    diagnosis = diagnose_files({"job/log_4.log": RANK4, "job/log_0.log": RANK0})
    assert_reads(diagnosis, "oom", first_error="std::bad_alloc")
    assert diagnosis.culprit_ranks == [4]


def test_an_uncaught_bad_alloc_is_memory_with_the_crash_beside_it() -> None:
    diagnosis = diagnose_files({"job/log_2.log": " norm passed\n" + UNCAUGHT})
    assert diagnosis.category == "oom"
    assert "device_fault" in alternative_labels(diagnosis)
