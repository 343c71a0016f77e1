"""MLX's own distributed backends: the ring transport's socket errors and a host without RDMA.

docs/labelling.md#mlx-ring-and-rdma-backends: the ring backend's worker thread prints every
failed send or receive on one of its sockets with the system's errno, and gives up after ten in
a row. The first such line is the first error and the label is `hccl` (the link between the
ranks failed); the give-up notice and the peer's broken-pipe echoes follow from it.
`mlx.distributed_config` refusing a host that shows no RDMA device is the machine's set-up:
`driver_env`. Values are our own, in the backends' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SEND_FAILURES = """\
[ring] Sending to socket 7 failed with errno 22
[ring] Sending to socket 7 failed with errno 22
[ring] Sending to socket 7 failed with errno 22
[ring] Too many send/recv errors. Aborting...
"""

RECV_RESET_THEN_PEER = """\
rank 1: prefill 2048 tokens
[ring] Receiving from socket 12 failed with errno 104
[ring] Receiving from socket 12 failed with errno 104
[ring] Too many send/recv errors. Aborting...
[ring] Sending to socket 9 failed with errno 32
"""

GIVE_UP_ONLY = "[ring] Too many send/recv errors. Aborting...\n"

NO_RDMA = """\
$ mlx.distributed_config --backend jaccl --over thunderbolt --hosts studio-a,studio-b
  [INFO] Checking that ssh works
  [ERROR] studio-b does not seem to have RDMA enabled
"""


def test_a_ring_send_that_keeps_failing_is_the_link() -> None:
    diagnosis = diagnose_text("rank0.log", SEND_FAILURES)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Sending to socket 7 failed with errno 22",
        rule="hccl.mlx_ring_socket_error",
    )


def test_the_first_failed_receive_leads_the_give_up_and_the_peers_echo() -> None:
    diagnosis = diagnose_text("rank1.log", RECV_RESET_THEN_PEER)
    assert_reads(diagnosis, "hccl", first_error="Receiving from socket 12 failed with errno 104")


def test_the_give_up_notice_alone_still_says_the_ring_failed() -> None:
    diagnosis = diagnose_text("rank0.log", GIVE_UP_ONLY)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "hccl.mlx_ring_socket_error" in rules_of(diagnosis)


def test_a_ring_socket_that_connected_is_no_failure() -> None:
    diagnosis = diagnose_text("rank0.log", "[ring] Connected to socket 7 on 10.0.0.2:5000\n")
    assert "hccl.mlx_ring_socket_error" not in rules_of(diagnosis)


def test_a_host_without_rdma_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("config.log", NO_RDMA)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="does not seem to have RDMA enabled",
        rule="env.mlx_rdma_not_enabled",
    )


def test_a_host_reported_with_rdma_is_no_failure() -> None:
    diagnosis = diagnose_text("config.log", "  [INFO] studio-b has RDMA enabled on en3\n")
    assert "env.mlx_rdma_not_enabled" not in rules_of(diagnosis)
