"""The store client's own warning that its socket to the job's store broke.

docs/labelling.md#a-store-host-gone-under-the-dump-check: c10d's TCPStore client logs the
socket call that failed, `[c10d] recvValue failed on SocketImpl(...): Connection reset by peer`
or `sendBytes failed ...: Broken pipe`, with its C++ frames, when the process hosting the store
has gone. A paste can keep that warning without the monitor's "should dump" line above it; it
says the same, `hccl` with `other` beside it, and is the first error. An error a rank printed
before it wins, and the "should dump" line keeps the first place when both are there. Hosts,
descriptors and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RECV_RESET = (
    "[rank2]:[W1103 08:14:52.331207654 TCPStore.cpp:125] [c10d] recvValue failed on"
    " SocketImpl(fd=63, addr=[node-b]:50212, remote=[node-a]:29500): Connection reset by peer\n"
    "Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:675"
    " (most recent call first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f3a11b785e8 in"
    " /opt/venv/lib/python3.11/site-packages/torch/lib/libc10.so)\n"
)
SEND_BROKEN = (
    "[W1103 08:14:53.004112730 TCPStore.cpp:106] [c10d] sendBytes failed on SocketImpl(fd=58,"
    " addr=[::ffff:10.2.0.7]:41122, remote=[::ffff:10.2.0.5]:29500): Broken pipe\n"
)
WITH_DUMP_CHECK = (
    "[rank1]:[W1103 08:14:52.330001001 ProcessGroupNCCL.cpp:1771] [PG ID 0 PG GUID 0 Rank 1]"
    ' Failed to check the "should dump" flag on TCPStore, (maybe TCPStore server has shut down'
    " too early), with error: Connection reset by peer\n" + RECV_RESET
)
RAISED_BEFORE = (
    "[rank0]: RuntimeError: Expected all tensors to be on the same device, but found at least"
    " two devices, cuda:0 and cpu!\n" + RECV_RESET
)
NOT_A_BREAK = (
    "[I1103 08:10:01.000100200 TCPStore.cpp:300] [c10d] client connected on SocketImpl(fd=63,"
    " addr=[node-b]:50212, remote=[node-a]:29500)\n"
)


def test_a_broken_store_socket_alone_is_a_store_host_that_went_away() -> None:
    diagnosis = diagnose_text("worker.log", RECV_RESET)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="recvValue failed on SocketImpl",
        rule="hccl.store_client_socket_broken",
        beside=("other",),
    )


def test_a_broken_pipe_on_send_is_read_alike() -> None:
    diagnosis = diagnose_text("worker.log", SEND_BROKEN)
    assert_reads(diagnosis, "hccl", first_error="sendBytes failed on SocketImpl")


def test_the_dump_check_line_stays_first_when_both_are_there() -> None:
    diagnosis = diagnose_text("worker.log", WITH_DUMP_CHECK)
    assert diagnosis.category == "hccl"
    assert '"should dump" flag' in diagnosis.first_error.text


def test_an_error_printed_before_the_socket_warning_wins() -> None:
    diagnosis = diagnose_text("worker.log", RAISED_BEFORE)
    assert "Expected all tensors to be on the same device" in diagnosis.first_error.text


def test_a_connected_client_is_no_break() -> None:
    diagnosis = diagnose_text("worker.log", NOT_A_BREAK)
    assert "hccl.store_client_socket_broken" not in rules_of(diagnosis)


# An agent polling the rendezvous store whose host went away mid-read: the client states the
# read that came back empty (`recvValueWithTimeout ...: Failed to recv, got 0 bytes`), then
# the write after it broke on the closed socket.
RECV_EMPTY_THEN_SEND_BROKEN = (
    "[default0]:2026-12-07 04:18:18,557 [rank0] INFO  attention passed\n"
    "[W1207 04:18:18.840782695 TCPStore.cpp:138] [c10d] recvValueWithTimeout failed on"
    " SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:45262, remote=[::ffff:127.0.0.1]:32533): Failed"
    " to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or"
    " crash?\n"
    "Exception raised from recvBytes at /__w/pytorch/pytorch/torch/csrc/distributed/c10d/"
    "Utils.hpp:787 (most recent call first):\n"
    "W1207 04:18:18.988000 4046 torch/distributed/elastic/multiprocessing/api.py:1028] Sending"
    " process 4230 closing signal SIGTERM\n"
    "[W1207 04:18:19.244208694 TCPStore.cpp:106] [c10d] sendBytes failed on SocketImpl(fd=3,"
    " addr=[::ffff:127.0.0.1]:45262, remote=[::ffff:127.0.0.1]:32533): Broken pipe\n"
)


def test_a_read_that_came_back_empty_is_the_first_break() -> None:
    diagnosis = diagnose_text("node-0/launcher.log", RECV_EMPTY_THEN_SEND_BROKEN)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="recvValueWithTimeout failed on SocketImpl",
        rule="hccl.store_client_socket_broken",
    )
