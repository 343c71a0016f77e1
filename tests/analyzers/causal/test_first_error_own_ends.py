"""A process's own record of its end that is the first error line its rank wrote.

docs/labelling.md#native-only-crashes
"""

from __future__ import annotations

from analyzers.causal.first_error import promote_first_own_ends
from tests.analyzers.excerpts import assert_reads, diagnose_files

LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] "
    "Read error [127.0.0.1]:36758: Connection reset by peer. This is typically caused by a "
    "remote worker hanging or bugs in the application. Check the logs of the remote worker "
    "before reporting an error."
)

PEER = f"""\
2026-05-11 09:40:02,118 [rank0] INFO prefill passed
2026-05-11 09:40:02,461 [rank0] INFO decode step 0 passed
2026-05-11 09:40:02,552 [rank0] ERROR model run failed: {LOST.removeprefix("RuntimeError: ")}
Traceback (most recent call last):
  File "/srv/infer/run.py", line 186, in forward
    dist.all_reduce(load)
{LOST}
"""

# faulthandler's dump carries no time; the rank's last progress line came before the peer's
# error, and nothing of the rank's own came before the dump
ABORTED = """\
2026-05-11 09:40:02,120 [rank1] INFO prefill passed
2026-05-11 09:40:02,459 [rank1] INFO decode step 0 passed
Fatal Python error: Aborted

Current thread 0x00007ff3d37e2b80 (most recent call first):
  File "/srv/infer/run.py", line 167 in forward
  File "/srv/infer/run.py", line 300 in run_model

Extension modules: numpy._core._multiarray_umath, torch._C, torch._C._nn (total: 3)
"""

# the same dump under the rank's own earlier error only echoes it
ABORTED_AFTER_OWN = """\
2026-05-11 09:40:02,120 [rank1] INFO prefill passed
2026-05-11 09:40:02,459 [rank1] INFO decode step 0 passed
terminate called after throwing an instance of 'c10::Error'
  what():  expert id 13 outside the dispatch table of rank 1
Fatal Python error: Aborted

Current thread 0x00007ff3d37e2b80 (most recent call first):
  File "/srv/infer/run.py", line 167 in forward
"""


def test_an_abort_dump_that_is_its_ranks_first_error_outranks_the_peers_lost_connection() -> None:
    diagnosis = diagnose_files({"job/log_0.log": PEER, "job/log_1.log": ABORTED})
    assert_reads(diagnosis, "device_fault", first_error="Fatal Python error: Aborted")
    assert diagnosis.culprit_ranks == [1]


def test_an_abort_dump_under_its_ranks_own_error_is_not_the_first_error() -> None:
    diagnosis = diagnose_files({"job/log_0.log": PEER, "job/log_1.log": ABORTED_AFTER_OWN})
    assert diagnosis.first_error is not None
    assert not diagnosis.first_error.text.startswith("Fatal Python error")


def test_nothing_is_promoted_without_a_correlation() -> None:
    promote_first_own_ends([], None)
