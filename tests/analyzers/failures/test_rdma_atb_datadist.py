"""Three failure kinds from serving on Ascend that printed lines no signature knew.

- HCCP cannot bring up the NPU's RDMA device (`ra rdev init failed`, `rdma init fail`):
  the NIC never starts, so the HCCL listen failure printed right after is a consequence
  and must not become the first error. A later socket clean-up message that shares the
  `ra hdc message process failed` wording is not an init failure.
- An ATB fused operation refuses its inputs at setup (`<Name>Operation setup failed!`),
  printed in torch's C++ `[rankN]:[E...]` format: an operator failure, not `other`.
- llm_datadist, the KV-cache transfer library of PD-disaggregated serving, raises
  `LLMException` with a failing `LLMStatusCode`: a communication failure.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RDMA_INIT = """\
[ERROR] HCCP(7311,python):2026-02-10-08:30:01.100.100 [ra_hdc_rdma.c:1199]tid:7311,ra_hdc_rdev_init(1199) : [init][ra_hdc_rdev]ra hdc message process failed ret(-67) phy_id(5)
[ERROR] HCCP(7311,python):2026-02-10-08:30:01.100.140 [ra_host.c:580]tid:7311,ra_rdev_init_with_backup_info(580) : [init][ra_rdev]ra rdev init failed, ret(-67)
[ERROR] HCCL(7311,python):2026-02-10-08:30:01.100.200 [adapter_hccp.cc:647] [7311][Init][RaRdma]errNo[0x0000000005000013] rdma init fail. return: ret[328004]
[ERROR] HCCL(7311,python):2026-02-10-08:30:01.100.260 [network_manager.cc:503] [7311][Start][Nic]errNo[0x0000000005000013] ra nic init rdma failed, devid[5], return[11]
[ERROR] HCCL(7311,python):2026-02-10-08:30:01.100.300 [hccl_socket.cc:100] [7311][HcclSocket][Listen] socket type[1], listen on ip[198.51.100.25] and specific port[16666] fail. Please check the port status.
"""

SOCKET_CLOSE_AFTER_LINK_TIMEOUT = """\
[ERROR] HCCL(8120,):2026-02-11-09:00:00.500.100 [hccl_socket_manager.cc:835] [8200][Create][Sockets]Wait links establish completed failed, local role is client. ret[9]
[ERROR] HCCL(8120,):2026-02-11-09:00:00.500.150 [hccl_socket_manager.cc:796] [8201][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[0] timeout[120 s]
[ERROR] HCCP(8120,):2026-02-11-09:00:02.700.000 [ra_hdc_socket.c:122]tid:8120,RaHdcSocketBatchClose : [batch_close][ra_hdc_socket]ra hdc message process failed, ret(-19) phyId(2).
"""

ATB_SETUP = """\
INFO 03-14 10:00:01 [backends.py:215] Compiling a graph for dynamic shape takes 2.10 s
[rank0]:[W314 10:00:04.120000000 compiler_depend.ts:335] Warning: Cannot create tensor with interal format while allow_internel_format=False, tensor will be created with base format. (function operator())
[rank0]:[E314 10:00:09.480000000 compiler_depend.ts:429] PagedAttentionOperation setup failed!
Exception raised from OperationSetup at build/third_party/op-plugin/op_plugin/CMakeFiles/op_plugin_atb.dir/compiler_depend.ts:151 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xb8 (0xffff90001000 in /usr/local/lib/python3.11/site-packages/torch/lib/libc10.so)
"""

DATADIST_LINK = """\
  File "/opt/serve/vllm_ascend/distributed/llmdatadist_c_mgr_connector.py", line 612, in add_remote_agent
    self.llm_datadist.link(comm_name, cluster_rank_info, rank_table)
  File "/opt/cann/python/site-packages/llm_datadist/status.py", line 121, in handle_llm_status
    raise LLMException(f"{func_name} failed, error code is {code_2_status(status)}, {other_info}.",
llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, cluster 4 not reachable.
"""


def test_rdma_device_init_failure_comes_before_the_listen_failure() -> None:
    diagnosis = diagnose_text("plog/plog-7311_20260210083001.log", RDMA_INIT)
    assert_reads(diagnosis, "hccl", first_error="ra hdc message process failed ret(-67) phy_id(5)")


def test_a_nic_that_never_started_offers_the_host_as_the_alternative() -> None:
    """docs/labelling.md#network-links-that-fail-under-a-collective: hccl, driver_env beside."""
    diagnosis = diagnose_text("plog/plog-7311_20260210083001.log", RDMA_INIT)
    assert "driver_env" in alternative_labels(diagnosis)


def test_a_link_that_timed_out_waiting_offers_no_host_alternative() -> None:
    """Counterexample: a peer that never came is not the port's state."""
    diagnosis = diagnose_text("plog/plog-8120_20260211090000.log", SOCKET_CLOSE_AFTER_LINK_TIMEOUT)
    assert "driver_env" not in alternative_labels(diagnosis)


def test_socket_close_after_a_link_timeout_is_not_an_rdma_init_failure() -> None:
    diagnosis = diagnose_text("plog/plog-8120_20260211090000.log", SOCKET_CLOSE_AFTER_LINK_TIMEOUT)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "RaHdcSocketBatchClose" not in diagnosis.first_error.text


def test_atb_operation_setup_refusal_is_an_operator_failure() -> None:
    diagnosis = diagnose_text("serve.log", ATB_SETUP)
    assert_reads(diagnosis, "operator", first_error="PagedAttentionOperation setup failed!")


def test_llm_datadist_exception_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("prefill/serve.log", DATADIST_LINK)
    assert_reads(diagnosis, "hccl", first_error="LLMStatusCode.LLM_LINK_FAILED")


# torch_npu's op-plugin creates an ATB context (the stream and workspace ATB operations run
# with) the first time a rank calls one; when that fails the plugin raises `Create context
# failed!` in torch's C++ format, with the op_plugin_atb place on the next line. The op layer
# could not start on the host: operator, with the job's settings beside it.
# docs/labelling.md#an-operator-name-decides-nothing
ATB_CONTEXT_REFUSED = """\
(Worker_PP1 pid=5120) INFO 03-04 05:06:07 [model_runner_v1.py:2498] Graph capturing finished in 9 secs, took 0.21 GiB
[rank1]:[E304 05:06:07.123456789 compiler_depend.ts:429] Create context failed!
Exception raised from operator() at build/third_party/op-plugin/op_plugin/CMakeFiles/op_plugin_atb.dir/compiler_depend.ts:42 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xd4 (0xffff80001000 in /opt/py/lib/python3.11/site-packages/torch/lib/libc10.so)
"""

# Counterexample: a graphics or driver library's own wording goes on after the words.
OTHER_CONTEXT_FAILURE = """\
EGL: Create context failed! error 0x3003 while opening the preview window
"""


def test_an_atb_context_the_op_plugin_could_not_create_is_an_operator_failure() -> None:
    diagnosis = diagnose_text("serve.log", ATB_CONTEXT_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Create context failed!",
        rule="op.atb_context_create_failed",
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_another_librarys_context_failure_is_not_atbs() -> None:
    diagnosis = diagnose_text("viewer.log", OTHER_CONTEXT_FAILURE)
    assert "op.atb_context_create_failed" not in rules_of(diagnosis)
