"""NCCL's proxy reporting a connection set-up with a peer that failed.

NCCL runs each transport connection's set-up through a proxy thread; when the operation fails
the proxy logs `[Proxy Service N] Failed to execute operation <Op> from rank N, retcode N` and
the rank that asked logs `Proxy Call to rank N failed (<Op>)`. In a multi-node log that holds no
socket or allocation line of its own, these say the communicator's set-up with a peer failed:
`hccl` with `driver_env` beside it, ahead of the peer-closed warning printed after them
(docs/labelling.md#network-links-that-fail-under-a-collective). Behind a socket's own failed
connect they stay a restatement. The rank's failed read while it polls the proxy for the answer
(`Socket recv failed while polling for opId=...`) is the same call failing from its side. Values
of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# Two hosts of two GPUs each; the second host's proxy cannot finish the NET connect while the
# communicator is built, and the only other warning is the peer's socket closing under it.
PROXY_CONNECT_FAILED = """\
node-a:4812:4812 [1] NCCL INFO Channel 00/02 : 0 1 2 3
node-a:4812:4990 [1] proxy.cc:1119 NCCL WARN [Proxy Service 1] Failed to execute operation Connect from rank 1, retcode 6

node-a:4812:4989 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer node-b<41873>
node-a:4812:4989 [1] NCCL INFO misc/socket.cc:546 -> 6
node-a:4812:4989 [1] proxy.cc:884 NCCL WARN Proxy Call to rank 1 failed (Connect)
node-a:4812:4989 [1] NCCL INFO transport/net.cc:265 -> 6
node-a:4812:4989 [1] NCCL INFO init.cc:1089 -> 6
node-a:4812:4812 [1] NCCL INFO comm 0x3c1e8a40 rank 1 nranks 4 cudaDev 1 busId 41000 - Abort COMPLETE
"""


def test_the_proxy_failed_connect_is_the_first_error_of_a_communicator_set_up() -> None:
    diagnosis = diagnose_text("node0.log", PROXY_CONNECT_FAILED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Failed to execute operation Connect from rank 1",
        rule="hccl.nccl_proxy_operation_failed",
    )
    assert diagnosis.confidence >= 0.4


# The client side alone, as a paste that kept only the last warning shows it.
PROXY_CALL_ALONE = """\
node-a:4812:4989 [1] NCCL INFO transport/net.cc:265 -> 6
node-a:4812:4989 [1] proxy.cc:884 NCCL WARN Proxy Call to rank 1 failed (Setup)
node-a:4812:4989 [1] NCCL INFO transport.cc:124 -> 6
"""


def test_a_failed_proxy_call_alone_is_a_failed_connection_set_up() -> None:
    diagnosis = diagnose_text("node0.log", PROXY_CALL_ALONE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Proxy Call to rank 1 failed (Setup)",
        rule="hccl.nccl_proxy_operation_failed",
    )


# A socket's own failed connect is printed first and keeps the first error.
SOCKET_THEN_PROXY = """\
node-a:4812:4989 [1] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.8.0.12<40311> failed : No route to host
node-a:4812:4990 [1] proxy.cc:1119 NCCL WARN [Proxy Service 1] Failed to execute operation Connect from rank 1, retcode 2
"""


def test_a_socket_connect_failure_outranks_the_proxy_restating_it() -> None:
    diagnosis = diagnose_text("node0.log", SOCKET_THEN_PROXY)
    assert diagnosis.first_error is not None
    assert "socketStartConnect: Connect to 10.8.0.12" in diagnosis.first_error.text


# The rank side one step earlier: while it waits for its proxy's answer, the socket to the proxy
# thread fails, as it does when the proxy met an error of its own. A launcher that prefixes each
# line with the host name (pdsh, mpirun's tags) leaves the NCCL line intact after the prefix.
PROXY_POLL_RECV_FAILED = """\
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO Channel 01/0 : 13[5] -> 12[4] via P2P/IPC/read
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO misc/socket.cc:752 -> 6
gpu-node-3: gpu-node-3:30412:30577 [5] proxy.cc:1160 NCCL WARN Socket recv failed while polling for opId=0x7f3a6c01e2a0
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO transport/net.cc:301 -> 3
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO init.cc:1104 -> 3
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO group.cc:64 -> 3 [Async thread]
gpu-node-3: gpu-node-3:30412:30412 [5] NCCL INFO group.cc:422 -> 3
"""


def test_a_failed_read_while_polling_the_proxy_is_a_failed_connection_set_up() -> None:
    diagnosis = diagnose_text("worker.log", PROXY_POLL_RECV_FAILED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Socket recv failed while polling for opId",
        rule="hccl.nccl_proxy_operation_failed",
        beside=("driver_env",),
    )
    assert diagnosis.confidence >= 0.3


# The proxy's trace lines about the answers it polled report steps that worked.
PROXY_POLL_TRACE = """\
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO ncclPollProxyResponse Received new opId=0x7f3a6c01e2a0
gpu-node-3: gpu-node-3:30412:30577 [5] NCCL INFO ncclPollProxyResponse Dequeued cached opId=0x7f3a6c01e2a0
gpu-node-3: gpu-node-3:30412:30412 [5] NCCL INFO comm 0x55d0c1a2e6b0 rank 13 nranks 16 cudaDev 5 busId 9c000 - Init COMPLETE
"""


def test_the_proxy_poll_trace_reports_nothing() -> None:
    diagnosis = diagnose_text("worker.log", PROXY_POLL_TRACE)
    assert "hccl.nccl_proxy_operation_failed" not in rules_of(diagnosis)


# The proxy's service thread says first that the operation it was running failed and that it
# closes the connection, before the proxy's own line names the rank that asked: the same
# failure one line earlier, and so the first error.
SERVICE_THREAD_FIRST = """\
host-b:7710:7790 [2] NCCL INFO misc/socket.cc:567 -> 2
host-b:7710:7790 [2] NCCL INFO transport/net.cc:592 -> 2

host-b:7710:7790 [2] proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=2, closing connection

host-b:7710:7790 [2] proxy.cc:1519 NCCL WARN [Proxy Service 6] Failed to execute operation Connect from rank 6, retcode 2
"""


def test_the_service_threads_failed_operation_is_the_first_error() -> None:
    diagnosis = diagnose_text("node1.log", SERVICE_THREAD_FIRST)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Error encountered progressing operation=Connect, res=2",
        rule="hccl.nccl_proxy_operation_failed",
    )


def test_the_service_threads_progress_of_an_operation_reports_nothing() -> None:
    text = "host-b:7710:7790 [2] NCCL INFO Received and initiated operation=Connect res=0\n"
    diagnosis = diagnose_text("node1.log", text)
    assert "hccl.nccl_proxy_operation_failed" not in rules_of(diagnosis)


# Before the proxy runs any operation, its service thread reads what a local rank asks of it.
# When that read fails, the thread says so with the local rank it could not hear from, one line
# above the proxy's own report of the operation that could not run: the first error.
SERVICE_THREAD_RECEIVE_FAILED = """\
gpu-a:5512:5580 [1] NCCL INFO misc/socket.cc:806 -> 3

gpu-a:5512:5580 [1] proxy.cc:1533 NCCL WARN [Service thread] Could not receive type from localRank 3, res=3, closed=0

gpu-a:5512:5580 [1] proxy.cc:1557 NCCL WARN [Proxy Service 1] Failed to execute operation Init from rank 3, retcode 3
gpu-a:5512:5512 [1] NCCL INFO group.cc:418 -> 3
"""


def test_the_service_threads_failed_receive_is_the_first_error() -> None:
    diagnosis = diagnose_text("node0.log", SERVICE_THREAD_RECEIVE_FAILED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Could not receive type from localRank 3",
        rule="hccl.nccl_proxy_operation_failed",
    )


def test_a_local_rank_that_closed_its_connection_reports_nothing() -> None:
    # At teardown each local rank closes its connection to the proxy, which notes it at INFO.
    text = "gpu-a:5512:5580 [1] NCCL INFO [Service thread] Connection closed by localRank 3\n"
    diagnosis = diagnose_text("node0.log", text)
    assert "hccl.nccl_proxy_operation_failed" not in rules_of(diagnosis)
