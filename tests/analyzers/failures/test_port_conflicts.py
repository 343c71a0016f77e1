"""Two jobs (or a prefill and a decode instance) on one host fight over the HCCL/HCCP socket
port. CANN says so as EJ0003 ('Failed to bind the IP port') or as a named EI code whose
header a terminal may wrap onto its own line, so the code is cut from its message; the words
'port ... have already been bound' still name the failure. Scanned and diagnosed end to end.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A KV-transfer client (glog prefix) reports a peer connection failure; the CANN message it
# embeds is wrapped by the terminal in the middle of the error's name.
WRAPPED_NAMED_CODE = """\
I0304 09:12:01.004417 77120 client.cpp:310] Registered buffer on device 3.
I0304 09:12:01.004902 77120 client.cpp:310] Registered buffer on device 3.
E0304 09:12:44.518230 77101 transfer_engine.cpp:412] Failed to connect to peer: 10.20.0.9:21001, status: 503900, errmsg: [PID: 76944] 2026-03-04-09:12:44.506.771 Communication_Error_Bi
nd_IP_Port(EI0020): Failed to enable listening for the NPU network adapter socket. Reason: The IP address 10.20.0.7 and port 16000 have already been bound.
 Solution: Check whether several processes share one card; if so, give each a port range.
TraceBack (most recent call last):
"""

EJ_BIND = """\
[rank1]: RuntimeError: createHCCLComm:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1302 HCCL function error: HcclGetRootInfo(&hcclID), error code is 11
[rank1]: [ERROR] 2026-02-03-08:15:23 (PID:4410, Device:1, RankID:-1) ERR02200 DIST call hccl api failed.
[rank1]: EJ0003: [PID: 4410] 2026-02-03-08:15:22.410.118 Failed to bind the IP port. Reason: The IP address and port have been bound already.
[rank1]:         TraceBack (most recent call last):
"""


def test_a_wrapped_bind_message_is_a_communication_set_up_failure() -> None:
    diagnosis = diagnose_text("pd/kv_client.log", WRAPPED_NAMED_CODE)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "10.20.0.9:21001" in diagnosis.first_error.text or (
        "have already been bound" in diagnosis.first_error.text
    )


def test_the_hccp_bind_code_is_the_cause_under_the_root_info_failure() -> None:
    diagnosis = diagnose_text("job/worker_1.log", EJ_BIND)
    assert_reads(diagnosis, "hccl", first_error="Failed to bind the IP port")


def test_a_port_held_by_another_process_offers_the_launch_beside_the_collective() -> None:
    """docs/labelling.md#a-communicator-that-could-not-be-created: a port range set for each
    job is the usual fix, so the launch's reading stands beside `hccl`."""
    diagnosis = diagnose_text("job/worker_1.log", EJ_BIND)
    assert "config" in alternative_labels(diagnosis)


def test_a_listen_failure_that_says_nothing_of_the_port_owner_offers_no_launch() -> None:
    """HCCL's listen line always prints its advice about the port; alone it does not show
    another process holding it (the device NIC may simply not have started)."""
    text = (
        "[ERROR] HCCL(7311,python):2026-02-10-08:30:01.100.300 [hccl_socket.cc:100] [7311]"
        "[HcclSocket][Listen] socket type[1], listen on ip[198.51.100.25] and specific "
        "port[16666] fail. Please check the port status and whether the port is been using by "
        "other process.\n"
    )
    diagnosis = diagnose_text("plog/plog-7311_20260210083001.log", text)
    assert diagnosis.category == "hccl"
    assert "config" not in alternative_labels(diagnosis)
