"""The reason an NCCL thread warned of leads the proxy's later restatement on that thread."""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

REASON = (
    "gpu-a:16901:16967 [2] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3\n"
)
RESTATED = (
    "gpu-a:16901:16967 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute "
    "operation Connect from rank 2, retcode 3\n"
)
OTHER_THREAD = REASON.replace("16901:16967", "16901:17012")


def test_the_threads_own_reason_is_read_first():
    diagnosis = diagnose_text("rank2.log", REASON + RESTATED)
    assert diagnosis.first_error is not None
    assert "wrong type 4 != 3" in diagnosis.first_error.text


def test_a_reason_on_another_thread_leaves_the_restatement_first():
    diagnosis = diagnose_text("rank2.log", OTHER_THREAD + RESTATED)
    assert diagnosis.first_error is not None
    assert "Failed to execute operation Connect" in diagnosis.first_error.text
