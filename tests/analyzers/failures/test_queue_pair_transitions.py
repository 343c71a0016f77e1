"""An RDMA queue pair that cannot be moved to its peer, reported by a library other than NCCL.

docs/labelling.md#a-transport-librarys-own-report-of-a-failed-transfer: expert-parallel
libraries, KV-transfer engines and verbs benchmarks bring their own queue pairs up to the peer
(INIT, then RTR with the peer's address, then RTS) and say in their own words when a step
failed (`Failed to modify QP to RTR: Connection timed out`, a handshake that names the settings
to check, UCX's `error modifying QP to RTR`). The link to that peer never came up: `hccl`, with
the fabric (`driver_env`) and the NIC or GID the program chose (`config`) beside it. UCX's
older fatal form of a failed completion (`FATAL: Error on <dev>:<port> QP ... wqe[..]: Transport
retry count exceeded (synd ..) opcode SEND`) is the same failed work request as its newer form.
Lines of our own in each library's format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BARE_RTR_TIMEOUT = """\
RoCE detected (Ethernet)
Remote LID: 0x0, QPN: 311, PSN: 0
  port_state: ACTIVE
Failed to modify QP to RTR: Connection timed out
errno: 110
Failed to modify QP to RTR: Connection timed out
"""

HANDSHAKE_RTR = """\
I0412 08:11:02.100200 7001 rdma_context.cpp:125] RDMA device: mlx5_3, LID: 0, GID: (GID_Index 3) 00:00:00:00:00:00:00:00:00:00:ff:ff:0a:01:02:03
E0412 08:11:20.551001 7004 rdma_endpoint.cpp:392] [Handshake] Failed to modify QP to RTR, check mtu, gid, peer lid, peer qp num: Connection timed out [110]
"""

UCX_RTR_ERROR = (
    "[1700000000.120001] [node-a12:2201:0]       rc_iface.c:1081 UCX  ERROR error modifying"
    " QP to RTR: Resource temporarily unavailable\n"
)

UCX_OLD_FATAL = """\
[node-b4:5120 :0:5120] ib_mlx5_log.c:115  FATAL: Error on mlx5_1:1 QP 0x1a2b wqe[42]: Transport retry count exceeded (synd 0x15 vend 0x81) opcode SEND
==== backtrace ====
0 0x000000000002cf1c uct_ib_mlx5_completion_with_err()  /opt/ucx/src/uct/ib/mlx5/ib_mlx5_log.c:112
1 0x000000000003ea00 uct_ib_mlx5_poll_cq()  /opt/ucx/src/uct/ib/mlx5/ib_mlx5.inl:38
"""


def test_a_bare_rtr_transition_that_timed_out_is_the_link() -> None:
    assert_reads(
        diagnose_text("ep_test.log", BARE_RTR_TIMEOUT),
        "hccl",
        first_error="Failed to modify QP to RTR: Connection timed out",
        rule="hccl.rdma_queue_pair_transition_failed",
        beside=["driver_env"],
    )


def test_a_transfer_engines_handshake_that_could_not_reach_rtr_is_the_link() -> None:
    assert_reads(
        diagnose_text("target.log", HANDSHAKE_RTR),
        "hccl",
        first_error="[Handshake] Failed to modify QP to RTR",
        rule="hccl.rdma_queue_pair_transition_failed",
        beside=["driver_env", "config"],
    )


def test_ucx_words_for_the_same_transition_read_alike() -> None:
    assert_reads(
        diagnose_text("rank3.log", UCX_RTR_ERROR),
        "hccl",
        first_error="error modifying QP to RTR",
        rule="hccl.rdma_queue_pair_transition_failed",
    )


def test_ucx_older_fatal_form_of_a_failed_completion_is_the_link() -> None:
    assert_reads(
        diagnose_text("rank7.log", UCX_OLD_FATAL),
        "hccl",
        first_error="Transport retry count exceeded (synd 0x15 vend 0x81) opcode SEND",
        rule="hccl.ucx_mlx5_error_completion",
        beside=["driver_env"],
    )


def test_a_transition_that_succeeded_is_no_failure() -> None:
    """Counterexample: progress notes of the same steps name no failure."""
    text = (
        "I0412 08:11:02.100200 7001 rdma_endpoint.cpp:300] modify QP to RTR done for peer 10.1.2.4\n"
        "I0412 08:11:02.100900 7001 rdma_endpoint.cpp:310] modify QP to RTS done\n"
    )
    diagnosis = diagnose_text("target.log", text)
    assert diagnosis.category != "hccl" or diagnosis.first_error is None, diagnosis.first_error
