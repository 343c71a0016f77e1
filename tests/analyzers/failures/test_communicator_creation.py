"""A communicator HCCL could not build, reported without a reason.

docs/labelling.md#a-communicator-that-could-not-be-created: the failure is the collective
layer's (`hccl`), but what has to change is usually the job's rank layout or the device
network, so both stand beside it. A reason printed with the failure outranks it. Excerpts in
the shapes HCCL's plog and a MindIE runner print, values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

PLOG_HEADLINE = (
    "[ERROR] HCCL(31877,python3):2026-03-14-02:11:09.512.330 [op_base.cc:974][31901][Init]"
    "[CommRootInfoConfig]errNo[0x0000000005000004]HcclCommInitRootInfo failed.\n"
)

RUNNER_RESTATEMENT = (
    "[2026-03-14 02:11:09.51241] [error] [31877] [hccl_runner.cpp:132] AllGatherHcclRunner:0 "
    "HcclCommInitRootInfo fail, error:4, rank:5, rankSize:16\n"
    "[2026-03-14 02:11:09.51250] [error] [31877] [comm_pool.h:43] CommPool commCreateFunc fail\n"
)

WITH_A_REASON = (
    "[ERROR] HCCL(31877,python3):2026-03-14-02:10:02.100.211 [topoinfo_exchange_agent.cc:77]"
    "[31901][Get][Socket]EI0006: Getting socket times out. Reason: the remote rank 0 did not"
    " answer within 120 s\n" + PLOG_HEADLINE
)


@pytest.mark.parametrize("text", [PLOG_HEADLINE, RUNNER_RESTATEMENT], ids=["plog", "runner"])
def test_a_communicator_that_was_not_built_points_at_layout_and_network(text: str) -> None:
    diagnosis = diagnose_text("node1/worker_5.log", text)
    assert_reads(diagnosis, "hccl", first_error="HcclCommInitRootInfo fail")
    assert {alt.category for alt in diagnosis.alternatives} == {"config", "driver_env"}


def test_the_reason_printed_before_it_is_the_first_error() -> None:
    diagnosis = diagnose_text("node1/worker_5.log", WITH_A_REASON)
    assert_reads(diagnosis, "hccl", first_error="Getting socket times out")


# A serving engine that checks the root-info call with a glog CHECK before any rank inits.
ROOT_INFO_CHECK = (
    "I20260412 06:30:11.204118 51877 worker_server.cpp:72] Create worker server with device: 0\n"
    "F20260412 06:30:11.219034 51860 collective_service.cpp:37] Check failed: status =="
    " HCCL_SUCCESS (1 vs. 0) HCCL get root info failed.\n"
    "*** Check failure stack trace: ***\n"
    "    @           0x7a41cf  google::LogMessage::SendToLog()\n"
    "    @          0x2841a94  xllm::CollectiveService::CollectiveService()\n"
)

ROOT_INFO_ENTRY = (
    "[INFO] HCCL(51860,python3):2026-04-12-06:30:11.200.411 [op_base.cc:512][51860]"
    " Entry-HcclGetRootInfo: identifier[10.0.0.7%eth0_60000_0]\n"
)


def test_a_root_info_step_that_failed_is_a_communicator_not_built() -> None:
    diagnosis = diagnose_text("node0/server.log", ROOT_INFO_CHECK)
    assert_reads(diagnosis, "hccl", first_error="HCCL get root info failed")
    assert {alt.category for alt in diagnosis.alternatives} >= {"config", "driver_env"}


def test_the_root_info_entry_line_is_no_failure() -> None:
    diagnosis = diagnose_text("node0/server.log", ROOT_INFO_ENTRY)
    assert diagnosis.category != "hccl"
