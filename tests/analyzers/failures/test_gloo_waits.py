"""gloo's own timeout on a CPU process group: a collective that waited, with hang beside it.

docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A rank whose peer never sent its share of an all-reduce within the group's timeout.
GLOO_RECV_TIMEOUT = """\
2026-05-02 10:40:11,208 [rank1] INFO layer 3 passed
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/bisect/run.py", line 61, in <module>
[rank1]:     dist.all_reduce(hidden)
[rank1]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 10000ms for recv operation to complete
"""

# Another wait that is not a collective's.
MODEL_DOWNLOAD = """\
2026-05-02 10:40:11,208 [rank1] ERROR Timed out waiting for the model to download
"""


def test_a_gloo_recv_timeout_is_the_collective_with_hang_beside_it() -> None:
    diagnosis = diagnose_text("logs/log_1.log", GLOO_RECV_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="for recv operation to complete", beside=("hang",))


def test_a_wait_for_a_download_is_no_collective_timeout() -> None:
    diagnosis = diagnose_text("logs/log_1.log", MODEL_DOWNLOAD)
    assert "hccl.gloo_timeout" not in {e.rule for e in diagnosis.evidence}


# A rank that issued its expert all-reduce with async_op=True and gave the handle a deadline;
# c10d's wait says only that the deadline passed.
WORK_WAIT_TIMEOUT = """\
2026-05-02 10:41:03,114 [rank2] INFO  attention passed
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/bisect/moe.py", line 88, in dispatch
[rank2]:     work.wait(timeout=datetime.timedelta(seconds=4))
[rank2]: RuntimeError: Operation timed out!
"""

# A download tool's timeout in the same words is no collective.
CURL_TIMEOUT = """\
curl: (28) Operation timed out after 30001 milliseconds with 0 bytes received
"""


def test_an_async_work_wait_that_ran_out_is_the_collective_with_hang_beside_it() -> None:
    diagnosis = diagnose_text("logs/log_2.log", WORK_WAIT_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Operation timed out!", beside=("hang",))


def test_a_download_timeout_is_no_work_wait() -> None:
    diagnosis = diagnose_text("logs/download.log", CURL_TIMEOUT)
    assert "hccl.work_wait_timeout" not in {e.rule for e in diagnosis.evidence}
