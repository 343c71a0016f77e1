"""NCCL's IB transport stopping a send larger than the receive its peer posted.

docs/labelling.md#network-links-that-fail-under-a-collective: before it writes to a peer,
NCCL's IB transport compares the send with the size the receiver posted and stops with
`NET/IB : ... collective mismatch error, local size N remote size M` (older releases:
`... collective mismatch error local size N remote M addr ... rkey ... seq ...`). The two ends
of one transfer disagreed, about the collective or through the NIC; the label is `hccl` with
`driver_env` beside it, and the WARN line is the first error ahead of torch's wrapper.
Hosts, addresses and sizes are our own, in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "hccl.nccl_net_size_mismatch"


NEWER_WORDING = """\
10.60.2.11: trainer-b3:9120:9288 [3] NCCL INFO Channel 00/0 : 3[3] -> 11[3] [send] via NET/IB/3
10.60.2.11: trainer-b3:9120:9288 [3] transport/net_ib.cc:1038 NCCL WARN NET/IB : req 0/1 tag 0 peer 10.60.2.14<48122> collective mismatch error, local size 1048576 remote size 524288
10.60.2.11: trainer-b3:9120:9288 [3] NCCL INFO include/net.h:32 -> 5
10.60.2.11: trainer-b3:9120:9288 [3] NCCL INFO transport/net.cc:890 -> 5
10.60.2.11: trainer-b3:9120:9288 [3] NCCL INFO proxy.cc:520 -> 5 [Proxy Thread]
10.60.2.11: [rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.14.3
"""


def test_the_size_check_is_the_first_error_ahead_of_the_wrapper() -> None:
    diagnosis = diagnose_text("node-b/train.log", NEWER_WORDING)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="collective mismatch error, local size 1048576",
        rule=RULE,
        beside=("driver_env",),
    )


OLDER_WORDING = """\
gpu-r12:40311:40433 [0] transport/net_ib.cc:667 NCCL WARN NET/IB : collective mismatch error local size 65536 remote 16384 addr 0 rkey 7a1c02 seq 2b/2b
gpu-r13:51207:51207 [2] NCCL INFO ReduceScatter: opCount 2b sendbuff 0x7f3a10000000 recvbuff 0x7f3a10400000 count 4096 datatype 7 op 0 root 0 comm 0x7f3a0c030110 [nranks=16] stream 0x55b0a0
"""


def test_the_older_wording_without_the_peer_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("worker0.log", OLDER_WORDING)
    assert_reads(
        diagnosis, "hccl", first_error="collective mismatch error local size 65536", rule=RULE
    )


INFO_ONLY = """\
gpu-r12:40311:40311 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.61.0.12<0>
gpu-r12:40311:40433 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0
gpu-r12:40311:40311 [0] NCCL INFO comm 0x55d1c8 rank 0 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE
"""


def test_the_transport_coming_up_is_no_mismatch() -> None:
    diagnosis = diagnose_text("worker0.log", INFO_ONLY)
    assert RULE not in rules_of(diagnosis)
