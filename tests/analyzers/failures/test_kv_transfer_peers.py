"""Disaggregated instances whose KV transfer cannot start with the peer they were given.

docs/labelling.md#kv-transfer-peers-that-do-not-match: the connector's own check of the two
layouts, a handshake answered by another engine, descriptors no backend registered and a peer
the metadata service does not know. docs/labelling.md#a-transfer-librarys-bare-status: NIXL's
bare backend status and the UCX socket line that explains it. Excerpts in the real shapes
(vLLM worker prefixes, glog lines of NIXL and Mooncake, UCX's log layout) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

BLOCK_SIZES_REFUSED = """\
(Worker_DP1_EP1 pid=52210) INFO 02-11 09:30:02 [worker.py:540] NIXL compatibility check passed
(Worker_DP1_EP1 pid=52210) INFO 02-11 09:30:02 [worker.py:561] Transfer plan: TransferTopology(tp_ratio=-2, num_kv_heads=4, local_tp=1, remote_tp=2, local_rank=0, remote_block_len=16384)
(Worker_DP1_EP1 pid=52210) ERROR 02-11 09:30:02 [worker.py:767] NIXL transfer failure: handshake_setup_failed | Context: {'failure_type': 'handshake_setup_failed', 'request_id': None}
(Worker_DP1_EP1 pid=52210) ERROR 02-11 09:30:02 [worker.py:767] AssertionError: Local block size 32 is not divisible by remote block size 128 or vice versa.
(Worker_DP1_EP1 pid=52210) ERROR 02-11 09:30:09 [worker.py:767] NIXL transfer failure: handshake_failed | Context: {'failure_type': 'handshake_failed', 'request_id': 'cmpl-4d2a'}
"""


def test_block_sizes_the_connector_cannot_map_are_the_instances_settings() -> None:
    """docs/labelling.md#kv-transfer-peers-that-do-not-match"""
    diagnosis = diagnose_text("decode/worker.log", BLOCK_SIZES_REFUSED)
    assert_reads(
        diagnosis, "config", first_error="Local block size 32 is not divisible", beside=("hccl",)
    )


def test_the_handshake_record_alone_stays_the_link() -> None:
    lines = BLOCK_SIZES_REFUSED.splitlines()
    diagnosis = diagnose_text("decode/worker.log", lines[2] + "\n")
    assert diagnosis.category == "hccl"


ENGINE_MISMATCH = """\
(Worker_DP2_EP2 pid=70113) ERROR 06-30 21:44:10 [nixl_connector.py:815] RuntimeError: Remote NIXL agent engine ID mismatch. Expected 3c0e9f12-7a41-4b6d-9d20-5f8e1a2b7c34_dp2,received a97d3b05-1e6c-4f28-b4a1-0c52d8e7f916_dp2.
(Worker_DP2_EP2 pid=70113) ERROR 06-30 21:44:10 [nixl_connector.py:827] Handshake failed for request chatcmpl-51b
"""


def test_a_handshake_answered_by_another_engine_is_the_side_channel_setting() -> None:
    """docs/labelling.md#kv-transfer-peers-that-do-not-match"""
    diagnosis = diagnose_text("decode/worker.log", ENGINE_MISMATCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="engine ID mismatch",
        rule="cfg.nixl_remote_engine_mismatch",
    )


DESCRIPTORS_REFUSED = """\
E0901 04:12:55.061207 nixl_agent.cpp:631] prepXferDlist: failed to prepare the descriptors for any of the specified or potential backends for agent ''
Exception in thread Thread-5 (bootstrap_thread):
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/disaggregation/nixl/conn.py", line 812, in bootstrap_thread
    src_handle = self.agent.prep_xfer_dlist("", src_array, "VRAM")
nixl._bindings.nixlNotFoundError: NIXL_ERR_NOT_FOUND
"""


def test_descriptors_no_backend_registered_are_a_layout_the_connector_mishandles() -> None:
    """docs/labelling.md#kv-transfer-peers-that-do-not-match"""
    diagnosis = diagnose_text("prefill/server.log", DESCRIPTORS_REFUSED)
    assert_reads(
        diagnosis, "config", first_error="prepXferDlist: failed to prepare", beside=("other",)
    )


SEGMENT_UNKNOWN = """\
[2025-07-19 02:10:41 TP0] Prefill batch. #new-seq: 1, #new-token: 12, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0,
[2025-07-19 02:10:44] 10.5.3.21 [19/Jul/2025:02:10:44 +0000] "GET /metadata?key=mooncake%2Fram%2F10.5.3.22_7d1e9a04 HTTP/1.1" 404 185 "-" "-"
E0719 02:10:44.302115 18842 transfer_metadata_plugin.cpp:173] Unexpected code in http response, GET http://10.5.3.21:8998/metadata?key=mooncake%2Fram%2F10.5.3.22_7d1e9a04 response code: 404 response body: metadata not found
W0719 02:10:44.302140 18842 transfer_metadata.cpp:153] Failed to retrieve segment descriptor, name 10.5.3.22_7d1e9a04
"""


def test_a_peer_the_metadata_service_does_not_know_is_the_link() -> None:
    """docs/labelling.md#kv-transfer-peers-that-do-not-match"""
    diagnosis = diagnose_text("prefill/server.log", SEGMENT_UNKNOWN)
    assert_reads(
        diagnosis, "hccl", first_error="Unexpected code in http response", beside=("config",)
    )


BARE_BACKEND_STATUS = """\
Backend UCX was instantiated
Initialized NIXL agent: 61d0b8e4-2c7a-4f13-9e85-a3b7c1d20f96
2025-09-04T13:02:18.551Z ERROR engine.run_mp_engine: NIXL_ERR_BACKEND
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/vllm/engine/llm_engine.py", line 481, in _initialize_nixl
    agents_names = self.model_executor.collective_rpc("initialize_nixl", args=(self.engine_id,))
"""


def test_nixls_bare_backend_status_alone_is_the_hosts_library_setup() -> None:
    """docs/labelling.md#a-transfer-librarys-bare-status"""
    diagnosis = diagnose_text("worker.log", BARE_BACKEND_STATUS)
    assert_reads(diagnosis, "driver_env", first_error="NIXL_ERR_BACKEND")
    assert diagnosis.confidence < 0.8
    assert {"hccl", "config"} <= set(alternative_labels(diagnosis))


CONNECT_REFUSED_THEN_STATUS = """\
[1757000538.114702] [node-c4:6120 :0]            sock.c:334  UCX  ERROR   connect(fd=88, dest_addr=10.9.0.14:47213) failed: Connection refused
ERROR 09-04 13:02:18 engine.py:244] nixlBackendError('NIXL_ERR_BACKEND')
ERROR 09-04 13:02:18 engine.py:244] Traceback (most recent call last):
ERROR 09-04 13:02:18 engine.py:244]   File "/opt/venv/lib/python3.12/site-packages/vllm/engine/multiprocessing/engine.py", line 343, in handle_new_input
ERROR 09-04 13:02:18 engine.py:244]     self.engine.add_remote_nixl_metadata(nixl_metadata)
"""


def test_ucxs_refused_connect_explains_the_backend_status_after_it() -> None:
    """docs/labelling.md#a-transfer-librarys-bare-status"""
    diagnosis = diagnose_text("decode/worker.log", CONNECT_REFUSED_THEN_STATUS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="connect(fd=88, dest_addr=10.9.0.14:47213) failed",
        beside=("config",),
    )
