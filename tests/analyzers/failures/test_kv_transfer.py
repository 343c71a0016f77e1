"""Prefill/decode disaggregation moves the KV cache between instances with a transfer engine
that logs glog-style C++ lines (`E20260302 08:00:41.700100 51200 transport.cpp:830] ...`)
followed by the connector's vLLM lines. When the remote cannot be reached, the connect
failure is the first error and the job is a communication failure. So is a channel whose
transfer buffer HCCL refuses to register (the engine start-up failure after it is a
consequence); a buffer registered with another transport is not HCCL's failure.

In the same logs torch's C++ warnings (`[rank0]:[W302 ...] Warning: ... (function ...)`)
look like a bare Python exception line `Warning: text`; the writer stamped them W, so they
stay warnings and never become the first error.
"""

from __future__ import annotations

from analyzers.core.types import EventKind
from tests.analyzers.excerpts import (
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
    scan_text,
)

CONNECT_FAILED = """\
E20260302 08:00:41.700100 51200 ascend_direct_transport.cpp:815] Failed to connect to target: 10.0.3.7:26001, status: 103900
E20260302 08:00:41.700160 51200 ascend_direct_transport.cpp:577] Failed to connect to segment: 10.0.3.7:16010
(EngineCore_DP0 pid=7000) ERROR 03-02 08:00:41 [mooncake_connector.py:420] Mooncake transfer failed for request cmpl-0a1b2c3d-0
(EngineCore_DP0 pid=7000) ERROR 03-02 08:00:41 [mooncake_connector.py:331] Failed to transfer KV cache for request cmpl-0a1b2c3d-0: Mooncake transfer failed, ret: -1
[rank0]:[W302 08:00:41.402119770 compiler_depend.ts:117] Warning: Driver Version:  is invalid or not supported yet. (function operator())
"""

CONNECT_TIMEOUT = """\
E20260302 09:10:00.100200 61300 ascend_direct_transport.cpp:1101] Connect timeout to: 10.0.3.9:30400, consider a longer ASCEND_CONNECT_TIMEOUT.
I20260302 09:10:00.100300 61300 ascend_direct_transport.cpp:1113] Connected to segment: 10.0.3.9:30400, cost:10002000 us.
E20260302 09:10:00.100400 61300 ascend_direct_transport.cpp:830] Transfer slice failed with status: 103902
(Worker_DP1_EP1 pid=6100) ERROR 03-02 09:10:00 [mooncake_hybrid_connector.py:550] Mooncake transfer failed for request chatcmpl-77aa-0
"""


def test_an_unreachable_kv_transfer_peer_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("decode/serve.log", CONNECT_FAILED)
    assert_reads(diagnosis, "hccl", first_error="Failed to connect to target: 10.0.3.7:26001")


def test_a_kv_transfer_connect_timeout_is_not_read_as_a_config_error() -> None:
    diagnosis = diagnose_text("decode/serve.log", CONNECT_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Connect timeout to: 10.0.3.9:30400")


def test_a_warning_stamped_line_is_not_a_bare_exception_line() -> None:
    scan = scan_text("decode/serve.log", CONNECT_FAILED)
    warning = next(e for e in scan.events if "Driver Version" in e.text)
    assert warning.kind == EventKind.WARNING
    assert warning.source != "traceback"


def test_an_unstamped_warning_exception_is_still_an_error() -> None:
    """Warnings turned into errors (`-W error`) end a real traceback with no level stamp."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/job/train.py", line 41, in <module>\n'
        "    scale = torch.tensor(ratio, dtype=torch.float16)\n"
        "RuntimeWarning: overflow encountered in cast\n"
    )
    scan = scan_text("job/train.log", text)
    errors = [e for e in scan.events if e.kind == EventKind.ERROR]
    assert [e.message for e in errors] == ["RuntimeWarning: overflow encountered in cast"]


# SGLang's Ascend transfer backend prints one line when its engine does not start
ENGINE_START_FAILED = """\
[2026-03-02 08:00:40] Load weight end. elapsed=0.41 s, type=Qwen2ForCausalLM, avail mem=28.10 GB, mem usage=0.98 GB.
[2026-03-02 08:00:41] Memory pool end. avail mem=6.12 GB
RuntimeError: Ascend Transfer Engine initialization failed.
"""

# the memory fabric under it logs its own layout; the driver's refusal comes first
ENGINE_START_DRIVER_REFUSED = """\
2026-03-02 08:00:41.200110 error 7311 pid[7311] [BM devmm_ioctl.cpp:122] svm advise failed:-1 : 3 : No such process
2026-03-02 08:00:41.200140 error 7311 pid[7311] [BM devmm_svm_gva.cpp:586] Alloc gva local mem error. (ret=-1 size=0x2000000advise=0x2100008e)
2026-03-02 08:00:41.200150 error 7311 pid[7311] [BM hybm_entry.cpp:284] HalGvaAlloc hybm meta memory failed: -1, un-reserve memory 0
2026-03-02 08:00:41.200160 error 7311 pid[7311] [SMEM smem_trans.cpp:44] hybm core init failed: -3
2026-03-02 08:00:41.200170 error 7311 pid[7311] [ADAPTER pytransfer.cpp:49] Failed to init smem_trans, ret=-3
[2026-03-02 08:00:41] Ascend Transfer Engine initialization failed.
"""

# the fabric's info lines in a run that failed for another reason say nothing of the failure
ENGINE_STARTED_THEN_OOM = """\
2026-03-02 08:00:41.200110 info 7311 pid[7311] [SMEM smem_trans.cpp:60] smem_trans init success
[2026-03-02 08:00:41] Ascend Transfer Engine initialized.
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated; 58.10 GiB current active; 0.90 GiB free; 58.20 GiB reserved in total by PyTorch)
"""


def test_a_transfer_engine_that_does_not_start_is_read_as_its_settings() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", ENGINE_START_FAILED)
    assert_reads(diagnosis, "config", first_error="Ascend Transfer Engine initialization failed")
    assert {"driver_env", "hccl"} & {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8
    assert any("ASCEND_MF_STORE_URL" in action for action in diagnosis.next_actions)
    assert not any("MOONCAKE_CONFIG_PATH" in action for action in diagnosis.next_actions)


def test_the_drivers_memory_refusal_before_the_engine_headline_decides() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", ENGINE_START_DRIVER_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="svm advise failed", beside=("oom",))


def test_a_started_engines_log_lines_are_not_errors() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", ENGINE_STARTED_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# a KV-cache pool's store client gives up after its retries while the server starts
POOL_CLIENT_NOT_CREATED = """\
W20260310 09:12:44.101200 4410 real_client.cpp:232] Failed to create client on port 14100, retry 15/15
W20260310 09:12:44.130400 4412 real_client.cpp:232] Failed to create client on port 14164, retry 15/15
E20260310 09:12:44.200300 4410 real_client.cpp:239] Failed to create client after 15 retries
(Worker_TP2 pid=4410) ERROR 03-10 09:12:44 [mooncake_backend.py:70] Initialize mooncake failed.
(Worker_TP2 pid=4410) ERROR 03-10 09:12:44 [multiproc_executor.py:962] WorkerProc hit an exception.
"""

# a retry that succeeded, in a run that failed for another reason
POOL_CLIENT_RETRIED_THEN_OOM = """\
W20260310 09:12:40.100100 4410 real_client.cpp:232] Failed to create client on port 14100, retry 3/15
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated; 58.10 GiB current active; 0.90 GiB free; 58.20 GiB reserved in total by PyTorch)
"""


def test_a_kv_pool_client_that_gives_up_is_read_as_its_settings() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("serve/worker2.log", POOL_CLIENT_NOT_CREATED)
    assert_reads(diagnosis, "config", first_error="Failed to create client after 15 retries")
    assert {"driver_env", "hccl"} & {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8
    assert any("MOONCAKE_CONFIG_PATH" in action for action in diagnosis.next_actions)
    assert not any("ASCEND_MF_STORE_URL" in action for action in diagnosis.next_actions)


def test_a_client_retry_is_not_the_failure() -> None:
    diagnosis = diagnose_text("serve/worker2.log", POOL_CLIENT_RETRIED_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


REGISTER_REFUSED = """\
(Worker_TP1 pid=8120) ERROR 04-01 10:00:01 [multiproc_executor.py:671]     handle = agent.register_mem(ptr, size)
(Worker_TP1 pid=8120) ERROR 04-01 10:00:01 [multiproc_executor.py:671] RuntimeError: Failed to register memory | HCCL Error Code: 7
(EngineCore_DP0 pid=8001) ERROR 04-01 10:00:02 [core.py:58] EngineCore failed to start.
"""


def test_hccl_refusing_a_transfer_buffer_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("job/worker_1.log", REGISTER_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="Failed to register memory | HCCL Error Code: 7")


def test_a_buffer_refused_by_another_transport_is_not_hccl() -> None:
    text = REGISTER_REFUSED.replace("HCCL Error Code: 7", "UCX error: no such device")
    diagnosis = diagnose_text("job/worker_1.log", text)
    assert diagnosis.category != "hccl"


# CANN's llm_datadist behind vLLM's llmdatadist connectors: the engine does not start
DATADIST_INIT_FAILED = """\
(VllmWorkerProcess pid=6120) ERROR 05-06 07:08:09 [multiproc_worker_utils.py:238]     handle_llm_status(ret, '[LLMDataDist.init]', f'Failed to initialize llm datadist, options = {options}')
(VllmWorkerProcess pid=6120) ERROR 05-06 07:08:09 [multiproc_worker_utils.py:238]     raise LLMException(f"{func_name} failed, error code is {code_2_status(status)}, {other_info}.",
(VllmWorkerProcess pid=6120) ERROR 05-06 07:08:09 [multiproc_worker_utils.py:238] llm_datadist.status.LLMException: [LLMDataDist.init] failed, error code is LLMStatusCode.LLM_FAILED, Failed to initialize llm datadist, options = {'ge.exec.deviceId': '3', 'llm.listenIpInfo': '10.40.0.9:27000', 'llm.Role': 'Decoder'}.
INFO 05-06 07:08:09 [multiproc_worker_utils.py:124] Killing local vLLM worker processes
"""

# the same library once started: the link to the peer cluster fails
DATADIST_LINK_FAILED = """\
(Worker_DP1_TP2_EP2 pid=7122)     comm_id = self.llm_datadist.link(comm_name, cluster_rank_info,
(Worker_DP1_TP2_EP2 pid=7122) llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {3: 0, 11: 1}.
"""


def test_a_datadist_that_does_not_start_is_read_as_its_settings() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("prefill/serve.log", DATADIST_INIT_FAILED)
    assert_reads(diagnosis, "config", first_error="[LLMDataDist.init] failed")
    assert "handle_llm_status" not in diagnosis.first_error.text
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_started_datadist_that_cannot_link_stays_a_communication_failure() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", DATADIST_LINK_FAILED)
    assert_reads(diagnosis, "hccl", first_error="LLM_LINK_FAILED")


# A transfer engine's own RDMA writes complete in error on the prefill side; the decode side
# only hears that the transfer failed. docs/labelling.md#network-links-that-fail-under-a-collective
SLICE_FAILED_PREFILL = """\
E0305 11:20:41.310200 2210077 worker_pool.cpp:294] Worker: Process failed for slice (opcode: 1, source_addr: 0x7f10aa000800, length: 4096, dest_addr: 0x7e22bc001000, local_nic: mlx5_2, peer_nic: 10.8.1.5:15120@mlx5_2, dest_rkey: 1930112, retry_cnt: 0): local protection error
E0305 11:20:41.322950 2210077 worker_pool.cpp:294] Worker: Process failed for slice (opcode: 1, source_addr: 0x7f10aa000800, length: 4096, dest_addr: 0x7e22bc001000, local_nic: mlx5_2, peer_nic: 10.8.1.5:15120@mlx5_2, dest_rkey: 1930112, retry_cnt: 1): local protection error
"""

SLICE_FAILED_DECODE = """\
[2026-03-05 11:20:41 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='0b1c2d3e' decode_req.req.bootstrap_room=771 with exception KVTransferError(bootstrap_room=771): Failed due to an unknown reason from another rank
[2026-03-05 11:20:41 TP1] Decode transfer failed for request rank=1 decode_req.req.rid='0b1c2d3e' decode_req.req.bootstrap_room=771 with exception KVTransferError(bootstrap_room=771): Failed due to an unknown reason from another rank
"""

UCX_COMPLETION_ERROR = """\
[1772709641.310200] [node-a3:4410 :0]     ib_mlx5_log.c:179  UCX  ERROR Remote access error on mlx5_4:1/IB (synd 0x13 vend 0x88 hw_synd 0/0)
[1772709641.310200] [node-a3:4410 :0]     ib_mlx5_log.c:179  UCX  ERROR RC QP 0x5c1 wqe[3]: RDMA_READ s-- [rva 0x7f0a10000000 rkey 0x2200a1] [va 0x7f3b20010000 len 8192 lkey 0x2200b7]
2026-03-05T11:20:41.318Z ERROR engine.start: nixlBackendError('NIXL_ERR_BACKEND')
"""

UCX_WARNING_THEN_BACKEND_ERROR = """\
[1772709641.310200] [node-a3:4410 :0]     ucp_context.c:1268 UCX  WARN  transports 'cuda_ipc','cuda_copy' are not available, please use one or more of: posix, self, sysv, tcp
2026-03-05T11:20:41.318Z ERROR engine.start: nixlBackendError('NIXL_ERR_BACKEND')
"""


def test_a_transfer_engines_failed_rdma_slice_decides_over_the_decode_side() -> None:
    """docs/labelling.md#network-links-that-fail-under-a-collective"""
    diagnosis = diagnose_files(
        {"prefill/serve.log": SLICE_FAILED_PREFILL, "decode/serve.log": SLICE_FAILED_DECODE}
    )
    assert_reads(diagnosis, "hccl", first_error="Process failed for slice", beside=("driver_env",))


def test_the_decode_side_alone_is_not_read_as_an_rdma_completion() -> None:
    diagnosis = diagnose_text("decode/serve.log", SLICE_FAILED_DECODE)
    assert diagnosis.first_error is not None
    assert "unknown reason from another rank" in diagnosis.first_error.text


def test_a_ucx_completion_error_under_nixl_is_the_first_error() -> None:
    """docs/labelling.md#network-links-that-fail-under-a-collective"""
    diagnosis = diagnose_text("decode/worker.log", UCX_COMPLETION_ERROR)
    assert_reads(diagnosis, "hccl", first_error="Remote access error on mlx5_4:1/IB")


def test_a_ucx_transport_warning_is_not_a_completion_error() -> None:
    diagnosis = diagnose_text("decode/worker.log", UCX_WARNING_THEN_BACKEND_ERROR)
    assert diagnosis.first_error is None or "UCX  WARN" not in diagnosis.first_error.text
    assert diagnosis.category != "hccl"


# The store client's transfers give up after their retries, with no reason of their own
STORE_TRANSFER_FAILED = """\
E0408 07:12:30.441020   318 client.cpp:444] Transfer failed for task0
W0408 07:12:30.441031   318 client.cpp:450] Transfer incomplete, retrying... (attempt 3/3)
E0408 07:12:30.461180   318 client.cpp:460] transfer_incomplete max_attempts=3
E0408 07:12:30.462001   318 store_py.cpp:367] Get operation failed with error: TRANSFER_FAIL
"""


def test_a_kv_store_transfer_that_gives_up_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("prefill/serve.log", STORE_TRANSFER_FAILED)
    assert_reads(diagnosis, "hccl", first_error="Transfer failed for task0")


def test_a_store_refusal_for_another_reason_is_not_a_transfer_failure() -> None:
    text = "E0408 07:12:30.462001   318 store_py.cpp:367] Put operation failed with error: OBJECT_ALREADY_EXISTS\n"
    diagnosis = diagnose_text("prefill/serve.log", text)
    assert diagnosis.category != "hccl"


# The transfer engine's RDMA transport cannot open the only NIC it was given
NO_USABLE_NIC = """\
I20260211 08:14:02.305120 77120 transfer_engine.cpp:200] Topology discovery complete. Found 1 HCAs.
I20260211 08:14:02.310520 77120 rdma_context.cpp:491] Find best gid index: 3 on mlx5_1/
E20260211 08:14:02.310551 77120 rdma_context.cpp:499] Failed to query GID 3 on mlx5_1/: Invalid argument [22]
W20260211 08:14:02.310990 77120 rdma_transport.cpp:420] Disable device mlx5_1
E20260211 08:14:02.311002 77120 rdma_transport.cpp:426] RdmaTransport: No available RNIC
E20260211 08:14:02.311040 77120 transfer_engine.cpp:234] Failed to install RDMA transport
E20260211 08:14:02.311290 77120 pybind_client.cpp:123] Failed to create client
"""

# the NIC opened; the engine's writes to its peer then ran out of retries
NIC_OPENED_PEER_UNREACHABLE = """\
I20260211 08:14:02.310520 77120 rdma_context.cpp:491] Find best gid index: 3 on mlx5_1/
E20260211 08:14:09.771000 77131 worker_pool.cpp:274] Worker: Process failed for slice (opcode: 0, source_addr: 0x7f2200001000, length: 1024, dest_addr: 139977100001, local_nic: mlx5_1, peer_nic: 10.8.1.9:16100@mlx5_1, dest_rkey: 441201, retry_cnt: 0): transport retry counter exceeded
"""


def test_a_transfer_engine_without_a_usable_nic_is_the_hosts_setup() -> None:
    """docs/labelling.md#a-gpu-direct-transport-that-does-not-start"""
    diagnosis = diagnose_text("decode/serve.log", NO_USABLE_NIC)
    assert_reads(
        diagnosis, "driver_env", first_error="Failed to query GID 3 on mlx5_1", beside=("config",)
    )


def test_a_nic_that_opened_leaves_a_connect_failure_to_the_link() -> None:
    diagnosis = diagnose_text("decode/serve.log", NIC_OPENED_PEER_UNREACHABLE)
    assert diagnosis.category == "hccl"


# vLLM's NIXL connector created without its library
NIXL_MISSING = """\
(EngineCore_DP0 pid=4120) ERROR 02-11 08:14:02 [core.py:712]   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py", line 430, in __init__
(EngineCore_DP0 pid=4120) ERROR 02-11 08:14:02 [core.py:712]     raise RuntimeError("NIXL is not available")
(EngineCore_DP0 pid=4120) ERROR 02-11 08:14:02 [core.py:712] RuntimeError: NIXL is not available
"""

# the import warning alone, in a run that failed for another reason
NIXL_WARNING_THEN_OOM = """\
WARNING 02-11 08:14:02 [nixl_connector.py:61] NIXL is not available
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.02 GiB is free.
"""


def test_a_kv_connector_without_its_transfer_library_is_the_environment() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", NIXL_MISSING)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="RuntimeError: NIXL is not available",
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_the_nixl_import_warning_is_not_the_failure() -> None:
    diagnosis = diagnose_text("decode/serve.log", NIXL_WARNING_THEN_OOM)
    assert diagnosis.category == "oom"


# NIXL refuses the telemetry the connector asks for; the connector then fails the transfer
NIXL_TELEMETRY_REFUSED = """\
E0603 12:40:05.118240     902 nixl_agent.cpp:1291] getXferTelemetry: cannot return values when telemetry is not enabled.
(EngineCore pid=902) ERROR 06-03 12:40:05 [base_worker.py:2123] NIXL transfer failure: transfer_exception. Marking blocks as invalid | Context: {'failure_type': 'transfer_exception', 'request_id': 'r-17', 'remote_host': '10.8.1.9', 'remote_port': 20100}
(EngineCore pid=902) ERROR 06-03 12:40:05 [base_worker.py:2123] Traceback (most recent call last):
"""

NIXL_TELEMETRY_WARNING_ONLY = """\
W0603 12:40:05.118240     902 nixl_agent.cpp:215] NIXL telemetry is disabled; ignoring telemetry requested through agent config
(EngineCore pid=902) ERROR 06-03 12:40:05 [base_worker.py:2123] NIXL transfer failure: transfer_exception. Marking blocks as invalid | Context: {'failure_type': 'transfer_exception', 'request_id': 'r-17'}
"""


def test_a_refused_telemetry_request_is_the_first_error_not_the_connectors_failure() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", NIXL_TELEMETRY_REFUSED)
    assert_reads(diagnosis, "config", first_error="getXferTelemetry")


def test_a_telemetry_warning_is_not_the_refusal() -> None:
    diagnosis = diagnose_text("decode/serve.log", NIXL_TELEMETRY_WARNING_ONLY)
    assert diagnosis.category != "config"


# docs/labelling.md#kv-transfer-engines-that-do-not-start: a decode worker's NIXL connector could
# not finish its metadata exchange with a remote prefill instance.
HANDSHAKE_SETUP_FAILED = """\
(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] NIXL transfer failure: handshake_setup_failed | Context: {'failure_type': 'handshake_setup_failed', 'request_id': None, 'engine_id': 'c7a1e2f0-1b2c-4d5e-8f90-0a1b2c3d4e5f', 'remote_engine_id': 'd1e2f3a4-5b6c-4d7e-8f90-1a2b3c4d5e6f'}
(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] Traceback (most recent call last):
(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py", line 1261, in done_callback
(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]     self._remote_agents[eid] = f.result()
(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]   File "/usr/lib/python3.12/concurrent/futures/_base.py", line 449, in result
(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]     return self.__get_result()
"""


def test_a_failed_nixl_handshake_is_the_link_to_the_remote_instance() -> None:
    diagnosis = diagnose_text("decode/serve.log", HANDSHAKE_SETUP_FAILED)
    assert_reads(diagnosis, "hccl", first_error="handshake_setup_failed", beside=("config",))


def test_a_handshake_timing_line_is_not_a_failure() -> None:
    text = (
        "(VllmWorker rank=1 pid=98474) DEBUG 07-08 02:13:53 [nixl_connector.py:464] "
        "NIXL handshake: get metadata took: 0.002419697993900627\n"
    )
    diagnosis = diagnose_text("decode/serve.log", text)
    assert diagnosis.category != "hccl"


# A decode instance registering its KV cache with NIXL: UCX cannot register the GPU memory with
# the NIC, NIXL's agent and the engine report it in their own lines after it
UCX_REGISTRATION_REFUSED = """\
(EngineCore pid=63) INFO 07-02 10:41:12 [worker.py:822] Registering KV_Caches. use_mla: False, kv_buffer_device: cuda, use_host_buffer: False
[1782988872.201004] [decode-w-1:63   :0]           ib_md.c:307  UCX  ERROR ibv_reg_mr(address=0x7f6a10000000, length=67108864, access=0x10000f) failed: Bad address
[1782988872.201050] [decode-w-1:63   :0]          ucp_mm.c:81   UCX  ERROR failed to register address 0x7f6a10000000 (cuda) length 67108864 on md[5]=mlx5_1: Input/output error (md supports: host|cuda)
E0702 10:41:12.201061      63 ucx_utils.cpp:577] Failed to ucp_mem_map: Input/output error
E0702 10:41:12.201133      63 nixl_agent.cpp:506] registerMem: registration failed for the specified or all potential backends
(EngineCore pid=63) ERROR 07-02 10:41:12 [core.py:1165] EngineCore failed to start.
"""

# the same start-up on a bonded port: UCX's own queue pair for memory keys does not come up,
# in a line whose reason is only an errno text
UCX_UMR_QP_REFUSED = """\
INFO 07-02 10:41:12 [nixl_connector.py:586] Registering KV_Caches: use_mla: False, num_blocks: 2048
[1782988872.301004] [prefill-0:90   :0]    ib_mlx5dv_md.c:1100 UCX  ERROR mlx5_bond_0: ibv_modify_qp(UMR QP 0x31f0) failed to modify to RTR: No such device
ERROR 07-02 10:41:12 [core.py:586] EngineCore failed to start.
"""

# UCX's logging turned down: NIXL's own summary is all there is
NIXL_REGISTRATION_ONLY = """\
E0702 10:41:12.201061      63 ucx_utils.cpp:577] Failed to ucp_mem_map: Input/output error
E0702 10:41:12.201133      63 nixl_agent.cpp:506] registerMem: registration failed for the specified or all potential backends
"""

# GPU-initiated channels: the NIC refuses the completion queue; the pool after it fails with an
# I/O error that NIXL maps to "Out of memory"
UCX_CQ_REFUSED = """\
[1784001200.120044] [ci-node-2:88120:0]      ib_mlx5_dv.c:452  UCX  ERROR   mlx5dv_devx_obj_create(CQ) failed on mlx5_3, syndrome 0x41b2c9: Remote I/O error
[1784001200.150901] [ci-node-2:88120:0]           gdaki.c:397  UCX  ERROR   gdaki channel chunk init: create_cq/qp failed (ch=1 ep=0)
[1784001200.151300] [ci-node-2:88120:0]           mpool.c:246  UCX  ERROR   Failed to allocate memory pool (name=gdaki_channel_pool) chunk: Input/output error
W0715 02:20:00.151322 88120 ucx_enums.cpp:58] Unexpected UCX error: Out of memory
E0715 02:20:00.151390 88120 ucx_utils.cpp:537] UCX endpoint create failed: failed to create ep
"""

# a benchmark rank whose NIXL finds no UCX plugin
NIXL_PLUGIN_MISSING = """\
ETCD Runtime: Registered as rank 0 item 1 of 2
E0501 09:00:01.000120  5120 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found
E0501 09:00:01.000985  5120 nixl_agent.cpp:322] createBackend: unsupported backend 'UCX'
"""


def test_ucx_refusing_to_register_gpu_memory_is_the_hosts_setup() -> None:
    """docs/labelling.md#a-gpu-direct-transport-that-does-not-start"""
    diagnosis = diagnose_text("decode/worker.log", UCX_REGISTRATION_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="ibv_reg_mr(address=0x7f6a10000000")
    assert {"config", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_ucx_memory_key_queue_pair_that_does_not_come_up_is_the_first_error() -> None:
    """The engine's start-up failure after it only reports it."""
    diagnosis = diagnose_text("prefill/worker.log", UCX_UMR_QP_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="ibv_modify_qp(UMR QP 0x31f0)")


def test_nixls_registration_summary_alone_still_names_the_host() -> None:
    diagnosis = diagnose_text("decode/worker.log", NIXL_REGISTRATION_ONLY)
    assert_reads(diagnosis, "driver_env", first_error="Failed to ucp_mem_map")


def test_a_refused_completion_queue_is_not_a_memory_shortage() -> None:
    diagnosis = diagnose_text("ci/test.log", UCX_CQ_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="mlx5dv_devx_obj_create(CQ) failed on mlx5_3")
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_a_missing_nixl_backend_plugin_is_the_environment() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("bench/rank0.log", NIXL_PLUGIN_MISSING)
    assert_reads(diagnosis, "driver_env", first_error="getPluginParams: backend 'UCX' not found")


# Mooncake's store over TCP: one thread's retries are printed before another thread's refused
# connect, which says why the transfers fail
TCP_CONNECT_REFUSED = """\
E0601 10:21:04.540010 90244 client.cpp:347] Transfer failed for task0
W0601 10:21:04.540016 90244 client.cpp:353] Transfer incomplete, retrying... (attempt 3/3)
E0601 10:21:04.550120 90211 tcp_transport.cpp:393] TcpTransport: ASIO exception: connect: Connection refused
E0601 10:21:04.550160 90211 client.cpp:347] Transfer failed for task0
"""

# the TCP transport handed device memory: the writes fail with EFAULT, the peer's reads end
TCP_DEVICE_BUFFER = """\
E20260530 22:11:47.305214 1130482 tcp_transport.cpp:175] Session::writeBody failed. Attempt to write data 0x401e52a18000 using buffer 0x401e52a18000. Error: Bad address (value: 14), total_transferred_bytes_: 0, current transferred_bytes: 0
E20260530 22:11:47.305228 1130479 tcp_transport.cpp:223] Session::readBody failed. Attempt to read data 0xffec91408000 using buffer 0xffec91408000. Error: End of file (value: 2), total_transferred_bytes_: 0, current transferred_bytes: 0
"""

TCP_PEER_CLOSED = """\
E20260530 22:11:47.305228 1130479 tcp_transport.cpp:223] Session::readBody failed. Attempt to read data 0xffec91408000 using buffer 0xffec91408000. Error: End of file (value: 2), total_transferred_bytes_: 0, current transferred_bytes: 0
"""


def test_a_refused_tcp_connect_outranks_the_store_retries_printed_before_it() -> None:
    """docs/labelling.md#network-links-that-fail-under-a-collective"""
    diagnosis = diagnose_text("prefill/serve.log", TCP_CONNECT_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="ASIO exception: connect: Connection refused")


def test_a_tcp_transport_handed_device_memory_is_a_setting_that_does_not_fit() -> None:
    diagnosis = diagnose_text("worker/serve.log", TCP_DEVICE_BUFFER)
    assert_reads(diagnosis, "config", first_error="Session::writeBody failed")
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_tcp_session_the_peer_closed_is_the_link() -> None:
    diagnosis = diagnose_text("worker/serve.log", TCP_PEER_CLOSED)
    assert diagnosis.category == "hccl"


# Ascend's one-sided transfer library under the KV pool: the transport's headline points at the
# error manager, whose block names the HCCL call that failed
HCCL_CHANNEL_FAILED = """\
E0901 04:05:06.700100 20411 transfer_executor_base.cpp:263] Failed to connect to target: 10.0.8.21:20031, status: 503900, errmsg: E19999: Inner Error!
E19999[PID: 20377] 2026-09-01-04:05:06.698.021 (E19999):  Call llm::HcclAdapter::GetInstance().HcclCommPrepare(comm, &config, timeout) fail, ret: 0x9[FUNC:Initialize][FILE:channel.cc][LINE:80]
        TraceBack (most recent call last):
       Call channel->Initialize(use_fabric) fail. Failed to init channel[FUNC:CreateChannel][FILE:channel_manager.cc][LINE:410]
"""


def test_the_hccl_call_named_under_a_transport_headline_is_the_first_error() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start (the block says what failed)"""
    diagnosis = diagnose_text("decode/serve.log", HCCL_CHANNEL_FAILED)
    assert_reads(diagnosis, "hccl", first_error="HcclCommPrepare(comm, &config, timeout) fail")


# docs/labelling.md#kv-transfer-peers-that-do-not-match: Mooncake's engine gives up on a batch of
# KV blocks at glog INFO with no error word; that line, not the connector's per-request report
# after it, is the first error.
BATCH_TIMEOUT = """\
I0402 11:19:58.201004 40190 ascend_direct_transport.cpp:1113] Connected to segment: 10.0.4.2:20511, cost:180212 us.
(APIServer pid=40001) INFO 04-02 11:20:05 [loggers.py:259] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 2 reqs, GPU KV cache usage: 11.2%, Prefix cache hit rate: 40.0%
I0402 11:20:31.118204 40211 transfer_engine_py.cpp:454] Sync batch data transfer timeout after 30000412877ns
I0402 11:20:31.118290 40212 transfer_engine_py.cpp:454] Sync batch data transfer timeout after 30000398120ns
(Worker_DP0_TP0_EP0 pid=40101) ERROR 04-02 11:20:31 [mooncake_connector.py:547] Mooncake transfer failed for request chatcmpl-4c2e-0
(Worker_DP0_TP1_EP1 pid=40102) ERROR 04-02 11:20:31 [mooncake_connector.py:547] Mooncake transfer failed for request chatcmpl-4c2e-0
"""


def test_a_batch_that_did_not_arrive_in_time_leads_the_connectors_reports() -> None:
    diagnosis = diagnose_text("decode/serve.log", BATCH_TIMEOUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Sync batch data transfer timeout after 30000412877ns",
        beside=("hang",),
    )


def test_a_batch_that_finished_is_no_timeout() -> None:
    scan = scan_text(
        "decode/serve.log",
        "I0402 11:20:31.118204 40211 transfer_engine_py.cpp:302] Sync batch data transfer "
        "finished in 1204512ns\n",
    )
    assert not [event for event in scan.events if event.kind != EventKind.CHECKPOINT]


# A container given the InfiniBand devices but no locked memory: UCX names the plain verbs call
# and the memlock limit left at its default.
UCX_CQ_NO_LOCKED_MEMORY = """\
[1784001300.004512] [gpu-7:3121:0]          ib_iface.c:712  UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory
[1784001300.004560] [gpu-7:3122:0]            ib_log.c:246  UCX  ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)
"""


def test_a_verbs_object_refused_for_locked_memory_is_the_host_not_a_shortage() -> None:
    """docs/labelling.md#a-gpu-direct-transport-that-does-not-start"""
    diagnosis = diagnose_text("bench/rank0.log", UCX_CQ_NO_LOCKED_MEMORY)
    assert_reads(diagnosis, "driver_env", first_error="ibv_create_cq(cqe=4096) failed")


def test_a_plain_out_of_memory_from_ucx_stays_a_shortage() -> None:
    """Counterexample: no verbs call named, the allocation itself failed."""
    text = (
        "[1784001300.104512] [gpu-7:3121:0]           mpool.c:270  UCX  ERROR "
        "Failed to allocate memory pool (name=rc_recv_desc) chunk: Out of memory\n"
    )
    diagnosis = diagnose_text("bench/rank0.log", text)
    assert diagnosis.category == "oom"


# A C++ serving engine calls CANN's data-dist library directly and checks its status with
# glog's CHECK, which logs a FATAL `Check failed:` line and a stack of its own. Made-up ids.
DATADIST_INIT_CHECK_FAILED = """\
I20260611 09:10:11.100200 41001 llm_data_dist_transfer.cpp:44] Create LlmDataDistTransfer for prefill instance.
F20260611 09:10:11.140300 41001 llm_data_dist_transfer.cpp:75] Check failed: ret == LLM_SUCCESS Initialize LlmDataList failed, ret = 1343225857
*** Check failure stack trace: ***
    @           0x6a10c4  google::LogMessage::SendToLog()
    @           0x6a0e20  google::LogMessageFatal::~LogMessageFatal()
    @          0x12a4b10  xllm::LlmDataDistTransfer::initialize()
"""

DATADIST_INIT_OK_THEN_OOM = """\
I20260611 09:10:11.100200 41001 llm_data_dist_transfer.cpp:44] Create LlmDataDistTransfer for prefill instance.
I20260611 09:10:20.500100 41001 llm_data_dist_transfer.cpp:76] Initialize LlmDataList success.
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated; 58.10 GiB current active; 0.90 GiB free; 58.20 GiB reserved in total by PyTorch)
"""


def test_a_datadist_init_refused_under_a_glog_check_is_read_as_its_settings() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("prefill/xllm.log", DATADIST_INIT_CHECK_FAILED)
    assert_reads(diagnosis, "config", first_error="Initialize LlmDataList failed")
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_datadist_that_started_is_not_the_failure() -> None:
    """Counterexample: the engine's note that the library started says nothing of the OOM."""
    diagnosis = diagnose_text("prefill/xllm.log", DATADIST_INIT_OK_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# docs/labelling.md#a-transport-list-that-leaves-a-gpu-no-lane
# UCX's device API (GPU-initiated transfers) looks for a transport lane that serves the local
# GPU; with the transports that reach GPU memory left out of the list it is given, it finds none.
NO_LANE_FOR_GPU = """\
[1785001200.004512] [ep-node-1:40211:0]      ucp_device.c:415  UCX  ERROR failed to select lane for local device GPU2
[1785001200.004530] [ep-node-1:40211:0]      ucp_device.c:593  UCX  ERROR failed to create handle: No such device
"""

LANE_NOTE = """\
[1785001200.004512] [ep-node-1:40211:0]      ucp_device.c:402  UCX  DEBUG selected lane 1 for local device GPU2
"""


def test_a_transport_list_that_leaves_the_gpu_no_lane_is_the_setting() -> None:
    diagnosis = diagnose_text("ep.log", NO_LANE_FOR_GPU)
    assert_reads(
        diagnosis,
        "config",
        first_error="failed to select lane for local device GPU2",
        rule="cfg.ucx_no_lane_for_device",
        beside=["hccl", "driver_env"],
    )


def test_a_lane_ucx_selected_is_no_failure() -> None:
    diagnosis = diagnose_text("ep.log", LANE_NOTE)
    assert "cfg.ucx_no_lane_for_device" not in rules_of(diagnosis)


# SGLang's decode instance records a request it had to give up because the prefill instance
# it was pulling the KV cache from no longer answers (docs/labelling.md#a-kv-transfer-peer-that-went-away);
# a client that asked for the request gets the same text back in the abort's message.
PREFILL_GONE_DECODE = """\
[2026-03-09 14:02:11 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='7a41c0' decode_req.req.bootstrap_room=90517 with exception KVTransferError(bootstrap_room=90517): Failed to get kvcache from prefill instance, it might be dead
"""

PREFILL_GONE_CLIENT = (
    '{"text":"","meta_info":{"id":"7a41c0","finish_reason":{"type":"abort","message":"Decode'
    " transfer failed for request rank=0 decode_req.req.rid='7a41c0' with exception"
    " KVTransferError(bootstrap_room=90517): Failed to get kvcache from prefill instance, it"
    ' might be dead","status_code":500}}\n'
)

# The prefill instance's own failure, logged before the decode side gave up on it.
PREFILL_OOM = """\
[2026-03-09 14:02:09 TP0] Scheduler hit an exception: Traceback (most recent call last):
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.02 GiB is free.
"""


def test_a_decode_that_lost_its_prefill_instance_is_the_link_with_the_peer_beside_it() -> None:
    for text in (PREFILL_GONE_DECODE, PREFILL_GONE_CLIENT):
        diagnosis = diagnose_text("decode/serve.log", text)
        assert_reads(
            diagnosis,
            "hccl",
            first_error="Failed to get kvcache from prefill instance",
            rule="hccl.kv_transfer_prefill_gone",
            beside=("device_fault",),
        )


def test_the_prefill_instances_own_failure_comes_before_the_decode_giving_up() -> None:
    diagnosis = diagnose_files(
        {"prefill/serve.log": PREFILL_OOM, "decode/serve.log": PREFILL_GONE_DECODE}
    )
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_a_transfer_failed_for_another_reason_is_not_a_prefill_that_went_away() -> None:
    diagnosis = diagnose_text("decode/serve.log", SLICE_FAILED_DECODE)
    assert "hccl.kv_transfer_prefill_gone" not in rules_of(diagnosis)
