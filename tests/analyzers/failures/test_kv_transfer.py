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
from tests.analyzers.excerpts import diagnose_text, scan_text

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
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Failed to connect to target: 10.0.3.7:26001" in diagnosis.first_error.text


def test_a_kv_transfer_connect_timeout_is_not_read_as_a_config_error() -> None:
    diagnosis = diagnose_text("decode/serve.log", CONNECT_TIMEOUT)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Connect timeout to: 10.0.3.9:30400" in diagnosis.first_error.text


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
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "Ascend Transfer Engine initialization failed" in diagnosis.first_error.text
    assert {"driver_env", "hccl"} & {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_the_drivers_memory_refusal_before_the_engine_headline_decides() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", ENGINE_START_DRIVER_REFUSED)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "svm advise failed" in diagnosis.first_error.text
    assert "oom" in {alt.category for alt in diagnosis.alternatives}


def test_a_started_engines_log_lines_are_not_errors() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", ENGINE_STARTED_THEN_OOM)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert "NPU out of memory" in diagnosis.first_error.text


REGISTER_REFUSED = """\
(Worker_TP1 pid=8120) ERROR 04-01 10:00:01 [multiproc_executor.py:671]     handle = agent.register_mem(ptr, size)
(Worker_TP1 pid=8120) ERROR 04-01 10:00:01 [multiproc_executor.py:671] RuntimeError: Failed to register memory | HCCL Error Code: 7
(EngineCore_DP0 pid=8001) ERROR 04-01 10:00:02 [core.py:58] EngineCore failed to start.
"""


def test_hccl_refusing_a_transfer_buffer_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("job/worker_1.log", REGISTER_REFUSED)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Failed to register memory | HCCL Error Code: 7" in diagnosis.first_error.text


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
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "[LLMDataDist.init] failed" in diagnosis.first_error.text
    assert "handle_llm_status" not in diagnosis.first_error.text
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_started_datadist_that_cannot_link_stays_a_communication_failure() -> None:
    """docs/labelling.md#kv-transfer-engines-that-do-not-start"""
    diagnosis = diagnose_text("decode/serve.log", DATADIST_LINK_FAILED)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "LLM_LINK_FAILED" in diagnosis.first_error.text
