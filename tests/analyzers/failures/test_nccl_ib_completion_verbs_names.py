"""NCCL's IB/RoCE transport reporting an error completion in its newer wording.

docs/labelling.md#network-links-that-fail-under-a-collective: newer NCCL releases first say
that polling found an error completion (`NET/IB: ncclIbTest: Got CQE with error (...)`) and
then name the status by its verbs name with the number in brackets
(`status=IBV_WC_REM_INV_REQ_ERR(9)`). Both are the link failing under a collective, `hccl`,
and the first of them is the first error ahead of the serving engine's stall notice.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TWO_NODE_SERVING = """\
node-a:412:412 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0xf10280000000 recvbuff 0xf10288000000 count 1048576 datatype 9 op 0 root 0 comm 0x2a1c0e0 [nranks=2] stream 0x2b0a110

[2026-02-11 08:14:52] node-a:412:447 [0] transport/net_ib/p2p.cc:786 NCCL WARN NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0xf1a0c0018018, comm=0xf1a0c0018000 (send), wr_id=3, qp_num=877)

[2026-02-11 08:14:52] node-a:412:447 [0] transport/net_ib/p2p.cc:651 NCCL WARN NET/IB: Got completion from peer 192.168.50.2<51234> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  localGid ::ffff:192.168.50.1 remoteGids::ffff:192.168.50.2 hca mlx5_1
node-a:412:447 [0] NCCL INFO transport/net.cc:1359 -> 6
node-a:412:447 [0] NCCL INFO proxy.cc:977 -> 6 [Progress Thread]
(EngineCore pid=98) INFO 02-11 08:15:52 [shm_broadcast.py:681] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).
"""


def test_an_error_cqe_in_the_newer_wording_is_the_link_not_a_stall() -> None:
    diagnosis = diagnose_text("node-a/serve.log", TWO_NODE_SERVING)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="ncclIbTest: Got CQE with error",
        rule="hccl.nccl_net_completion_error",
        beside=("driver_env",),
    )


COMPLETION_ONLY = """\
node-b:2210:2291 [0] transport/net_ib/p2p.cc:651 NCCL WARN NET/IB: Got completion from peer 192.168.50.1<40110> with status=IBV_WC_REM_INV_REQ_ERR(9) opcode=IBV_WC_RECV(128) vendor_err=138  localGid ::ffff:192.168.50.2 remoteGids::ffff:192.168.50.1 hca mlx5_1
"""


def test_a_status_named_by_its_verbs_enum_is_read_like_the_number() -> None:
    diagnosis = diagnose_text("node-b/serve.log", COMPLETION_ONLY)
    assert diagnosis.category == "hccl"
    assert "hccl.nccl_net_completion_error" in rules_of(diagnosis)


SUCCESSFUL_COMPLETION = """\
node-b:2210:2291 [0] NCCL INFO NET/IB: Got completion from peer 192.168.50.1<40110> with status=IBV_WC_SUCCESS(0) opcode=IBV_WC_RECV(128)
node-b:2210:2291 [0] NCCL INFO Connected all rings
"""


def test_a_successful_completion_is_no_link_failure() -> None:
    diagnosis = diagnose_text("node-b/serve.log", SUCCESSFUL_COMPLETION)
    assert "hccl.nccl_net_completion_error" not in rules_of(diagnosis)
