"""A disaggregated deployment whose transfer layer lost the instance at the other end.

NIXL reports a peer whose UCX endpoint disconnected with a status (`NIXL_ERR_REMOTE_DISCONNECT`)
and then drops its record of that peer, so the next transfer cannot be built (`createXferReq:
metadata for remote agent ... not found`). The client of Mooncake's KV store loses its master in
coro_rpc's words (`read rpc body failed`, `client has been closed, please re-connect`) before its
calls fail with `RPC_FAIL`. UCX names the endpoint operation it could not complete (a TCP send,
a queue-pair move the NIC refused); a crash of the library after it is its aftermath. All are
the link to the remote side (`hccl`), with the alternatives docs/labelling.md names.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

# a decode instance's KV-transfer process notifying a prefill whose endpoint went away
REMOTE_DISCONNECT = """\
genNotif: backend 'UCX' returned error status NIXL_ERR_REMOTE_DISCONNECT
nixl_cu12._bindings.nixlRemoteDisconnectError: NIXL_ERR_REMOTE_DISCONNECT
WARNING decode agent dec-7 lost prefill agent pre-3, adding it again
"""

# a prefill whose decode peer was dropped after a disconnect, then a transfer worker failing
AGENT_RECORD_DROPPED = """\
[2026-05-02 09:10:11 TP0] Prefill batch, #new-seq: 1, #new-token: 4096, #cached-token: 0, token usage: 0.02
E0502 09:10:11.402115    3301 nixl_agent.cpp:866] createXferReq: metadata for remote agent 'c0ffee01-2b3c-4d5e-8f90-a1b2c3d4e5f6' not found
E0502 09:10:11.402201    3307 nixl_agent.cpp:866] createXferReq: metadata for remote agent '0badf00d-1111-4222-8333-944455566677' not found
[2026-05-02 09:10:11 TP1] Unexpected transfer worker error for room 4410021
Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/disaggregation/nixl/conn.py", line 561, in transfer_worker
    handle = self.send_kvcache(
"""


def test_a_remote_disconnect_is_the_link_to_the_other_instance() -> None:
    diagnosis = diagnose_text("decode/kv_trans.log", REMOTE_DISCONNECT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="returned error status NIXL_ERR_REMOTE_DISCONNECT",
        beside=("device_fault",),
    )
    assert diagnosis.confidence < 0.8


def test_a_dropped_peer_record_is_the_first_error_before_the_transfer_worker() -> None:
    diagnosis = diagnose_text("prefill/serve.log", AGENT_RECORD_DROPPED)
    assert_reads(diagnosis, "hccl", first_error="metadata for remote agent 'c0ffee01")


def test_a_setting_named_after_the_status_is_not_a_disconnect() -> None:
    text = (
        "[2026-05-02 09:00:00] WARNING server_args.py:901: "
        "SGLANG_DISAGGREGATION_NIXL_EXIT_ON_REMOTE_DISCONNECT=1 is set, the engine exits on a lost peer\n"
    )
    diagnosis = diagnose_text("prefill/serve.log", text)
    assert diagnosis.category != "hccl"


# a prefill's KV store puts once the master's connection closed; each failed call prints the
# store's own line first, stamped a moment after coro_rpc's line about the closed connection
STORE_MASTER_LOST = """\
E0702 03:04:05.600310   210 master_client.cpp:136] Failed to start put operation: 
2026-07-02 03:04:05.600270 ERROR    [210] [coro_rpc_client.hpp:923] client has been closed, please re-connect
E0702 03:04:05.600350   210 client.cpp:323] Failed to start put operation: RPC_FAIL
E0702 03:04:05.600380   210 store_py.cpp:372] Put operation failed with error: RPC_FAIL
"""

STORE_RECOMPUTES = """\
WARNING 07-02 03:04:05 [mooncake_store_connector.py:182] [rank0]: Failed to receive all KVs and hidden states, redo model forwarding.
"""

# a store client mounting its segment at start while the master closes the connection
STORE_MOUNT_REFUSED = """\
2026-07-02 04:00:00.100200 ERROR    [88] [coro_rpc_client.hpp:978] read rpc body failed, error msg:End of file. close the socket.
E0702 04:00:00.100300    61 master_client.cpp:192] Failed to mount segment due to rpc error
E0702 04:00:00.100310    61 store_py.cpp:191] Failed to mount segment: UNKNOWN_ERROR
"""


def test_a_store_client_that_lost_its_master_is_the_link_to_the_store() -> None:
    diagnosis = diagnose_files(
        {"prefill/serve.log": STORE_MASTER_LOST, "decode/serve.log": STORE_RECOMPUTES}
    )
    assert_reads(
        diagnosis,
        "hccl",
        first_error="client has been closed, please re-connect",
        beside=("config",),
    )


def test_a_mount_refused_by_a_closed_connection_is_read_from_the_connection() -> None:
    diagnosis = diagnose_text("decode/serve.log", STORE_MOUNT_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="read rpc body failed")


def test_the_rpc_status_alone_still_names_the_store_link() -> None:
    text = (
        "E0702 03:04:05.600380   210 store_py.cpp:372] Put operation failed with error: RPC_FAIL\n"
    )
    diagnosis = diagnose_text("prefill/serve.log", text)
    assert diagnosis.category == "hccl", diagnosis.root_cause


def test_a_store_status_of_another_kind_is_not_an_rpc_failure() -> None:
    text = (
        "E0702 03:04:05.600380   210 store_py.cpp:372] "
        "Put operation failed with error: OBJECT_ALREADY_EXISTS\n"
    )
    diagnosis = diagnose_text("prefill/serve.log", text)
    assert diagnosis.category != "hccl"


# a sender whose TCP endpoint to the decode failed, NIXL's own view of it after
UCX_TCP_SEND_FAILED = """\
[2026-02-03 10:00:00,100] LMCache INFO: Storing KV cache for 8 out of 8 tokens for request cmpl-41-0 (vllm_v1_adapter.py:688:lmcache.integration.vllm.vllm_v1_adapter)
[1770112800.101500] [prefill-7b9c:4410 :0]          tcp_ep.c:1260 UCX  ERROR tcp_ep 0x2b40a1c0 (state=CONNECTED): send(64) failed: Input/output error
W0203 10:00:00.101530    4410 ucx_utils.cpp:43] Unexpected UCX error: Endpoint timeout
"""

# a prefill re-adding a restarted decode: the NIC refuses the queue pair's move, then a crash
UCX_QP_MOVE_REFUSED = """\
ib_mlx5_dv.c:433  UCX  ERROR   mlx5dv_devx_obj_modify(opcode=0x503) failed, syndrome 0x10a2b3: Remote I/O error
Fatal Python error: Segmentation fault

Current thread (most recent call first):
  File "nixl_cu12/_api.py", line 830 in add_remote_agent
"""


def test_a_ucx_send_that_failed_is_the_first_error() -> None:
    diagnosis = diagnose_text("prefill/serve.log", UCX_TCP_SEND_FAILED)
    assert_reads(diagnosis, "hccl", first_error="send(64) failed")


def test_a_refused_queue_pair_move_comes_before_the_crash_it_causes() -> None:
    diagnosis = diagnose_text("prefill/serve.log", UCX_QP_MOVE_REFUSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="mlx5dv_devx_obj_modify(opcode=0x503) failed",
        beside=("device_fault",),
    )


def test_a_queue_pair_the_nic_would_not_create_stays_the_hosts_setup() -> None:
    text = (
        "[1770112800.101500] [prefill-7b9c:4410 :0]      ib_mlx5_dv.c:452  UCX  ERROR   "
        "mlx5dv_devx_obj_create(QP) failed on mlx5_2, syndrome 0x41b2c9: Remote I/O error\n"
    )
    diagnosis = diagnose_text("prefill/serve.log", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
