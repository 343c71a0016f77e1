"""HCCL's summaries of a link that never came up, pasted without the timeout they sum up.

The socket manager's `[LinksEstablishCompleted] is failed. ret[9]` and the transport manager's
`Transport init error` for one named peer (EI0009 on the screen) say which link failed, not why;
they are read like the socket timeout: `hccl`, with `hang` beside it. A reason printed before
them keeps its own reading. docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout

The excerpts follow the real shapes (a trainer's `[rankN]:` screen block, an HCCL plog) with
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

SCREEN_EI0009 = """\
[rank2]: EI0009: [PID: 50731] 2026-02-11-08:30:12.402.117 Transport init error. Reason: [Create][DestLink]Create Dest error! createLink para:rank[2]-localUserrank[2]-localIpAddr[198.51.100.4], dst_rank[0]-remoteUserrank[0]-remote_ip_addr[198.51.100.4]
[rank2]:         Solution: Check other NPUs that are not reporting errors, or check if there are any abnormalities on the other end's NPU.
"""

PLOG_TRANSPORT = """\
[ERROR] HCCL(5120,):2026-02-11-08:30:12.410.007 [transport_manager.cc:954] [5188][InitChannelStage][RunFailed]Transport init error! createLink para:rank[3]-localUserrank[3]-localIpAddr[198.51.100.4/3], remoteRank[11]-remoteUserrank[11]-remoteIpAddr[198.51.100.9/3], machineType[0], linkMode[1], isUsedRdma[1], tag[AllGather_group_name_7]
[ERROR] HCCL(5120,):2026-02-11-08:30:12.410.301 [transport_manager.cc:470] [5130][Alloc]call trace: hcclRet -> 4
[ERROR] HCCL(5120,):2026-02-11-08:30:12.410.309 [hccl_communicator_host.cc:6019] [5130][AllocAlgResource]Alloc transports failed, tag[AllGather_group_name_7]
"""

PLOG_SUMMARY = """\
[ERROR] HCCL(6204,):2026-02-11-09:41:55.118.031 [hccl_socket_manager.cc:860] [6290][Wait][LinksEstablishCompleted] is failed. ret[9].
[ERROR] HCCL(6204,):2026-02-11-09:41:55.118.039 [hccl_socket_manager.cc:399] [6290][Create][Sockets]Wait links establish completed failed, local role is client. ret[9]
"""

# Counterexample: the driver package's missing call, printed before the transport failure,
# is the reason and keeps its own reading; no stall is offered for it.
PLOG_WITH_REASON = """\
[ERROR] HCCL(7310,python3):2026-02-11-10:02:03.502.110 [adapter_hccp.cc:2301] [7391]this package does not support hrtRaSetQpAttrTc for device, please change new package
[ERROR] HCCL(7310,python3):2026-02-11-10:02:03.502.180 [transport_ibverbs.cc:571] [7391][Creat][Qp]creat qp failed, localDeviceId[1], qpMode[2]
[ERROR] HCCL(7310,python3):2026-02-11-10:02:03.502.320 [transport_manager.cc:954] [7391][InitChannelStage][RunFailed]Transport init error! createLink para:rank[1]-localUserrank[1]-localIpAddr[198.51.100.4/1], remoteRank[9]-remoteUserrank[9]-remoteIpAddr[198.51.100.9/1], machineType[0], linkMode[1], isUsedRdma[1], tag[AllReduce_group_name_2]
"""


def test_a_lone_ei0009_offers_a_stall_beside_the_collective() -> None:
    diagnosis = diagnose_text("train_rank2.log", SCREEN_EI0009)
    assert_reads(diagnosis, "hccl", first_error="Transport init error", beside=("hang",))


def test_the_plogs_transport_report_is_first_and_offers_a_stall() -> None:
    diagnosis = diagnose_files({"node1/plog/plog-5120_20260211083000.log": PLOG_TRANSPORT})
    assert_reads(diagnosis, "hccl", first_error="[RunFailed]Transport init error", beside=("hang",))


def test_the_socket_managers_summary_alone_is_read_as_the_wait() -> None:
    diagnosis = diagnose_files({"node0/plog/plog-6204_20260211094100.log": PLOG_SUMMARY})
    assert_reads(
        diagnosis, "hccl", first_error="[LinksEstablishCompleted] is failed", beside=("hang",)
    )


def test_a_reason_before_the_transport_report_keeps_its_reading() -> None:
    diagnosis = diagnose_files({"node0/plog/plog-7310_20260211100200.log": PLOG_WITH_REASON})
    assert_reads(diagnosis, "driver_env", first_error="does not support hrtRaSetQpAttrTc")
    assert "hang" not in alternative_labels(diagnosis)
