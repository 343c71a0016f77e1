"""CANN failures reported by runtimes that are not torch_npu.

onnxruntime's CANN execution provider prints its own log header (time, level letter, logger,
source site) and checks each CANN call itself: the call's numeric result and ACL_ERROR_* name
come first, the graph-node summary after. Small C++ serving engines print a kernel binary the
runtime refused (in the runtime's words, or as their own register call with its nonzero
return code), or their own "ACL error + code" check. A synchronize issued while ACL graph
capture is on is refused with its own headline, which beats the runtime-result line below it
even when the headline's PID field came out garbled (`[PID:  [N]`, as a backend printed it).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

EP_CALL_THEN_NODE = """\
2024-06-11 08:15:02.114208337 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 500002: ACL_ERROR_GE_FAILURE ; NPU=1 ; hostname=infer-3 ; expr=aclopCompileAndExecute("Pad", in.size(), in.data(), out.size(), out.data(), attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, __null, stream);
2024-06-11 08:15:02.114290101 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned while running Pad node. Name:'/stem/Pad' Status Message: CANN error executing aclopCompileAndExecute("Pad", ...)
Traceback (most recent call last):
  File "serve.py", line 40, in <module>
    out = sess.run(None, feed)
"""

EP_REPEAT_INIT = """\
2024-06-11 09:00:00.000100200 [E:onnxruntime:Default, provider_bridge_ort.cc:1990 TryGetProviderInfo_CANN] /src/ort/providers/cann/cann_call.cc:143 bool onnxruntime::CannCall(ERRTYPE, const char*, const char*, ERRTYPE, const char*) [with ERRTYPE = int; bool THRW = true]
/src/ort/providers/cann/cann_call.cc:137 bool onnxruntime::CannCall(ERRTYPE, const char*, const char*, ERRTYPE, const char*) [with ERRTYPE = int; bool THRW = true] CANN failure 100002: ACL_ERROR_REPEAT_INITIALIZE ; NPU=0 ; hostname=pod-5 ; expr=aclInit(nullptr);
EP Error /src/ort/python/onnxruntime_pybind_state.cc:1180 create CANN ExecutionProvider fail
"""

EP_SINGLE_OP_INVALID_PARAM = """\
2024-06-11 08:20:41.300100200 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 100000: ACL_ERROR_INVALID_PARAM ; NPU=1 ; hostname=infer-3 ; expr=aclopCompileAndExecute("GatherV2", in.size(), in.data(), out.size(), out.data(), attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, __null, stream);
"""

NODE_ONLY = """\
[E:onnxruntime:,  sequential_executor.cc:368 Execute] Non-zero status code returned while running Gemm node. Name:'fc1'  Status Message: CANN errorEE9999: Inner Error!
"""

REFUSED_KERNEL_BINARY = """\
[ERROR] [Bisheng] Kernel binary register failure! ret 107000
[ERROR] [Bisheng] Get kernel functionName rope_kernel, fatbinDataPtr: 0x7f00aa001000 fatbinDataLength: 9216
[ERROR] [Bisheng] Get kernel function failure! ret 100000
"""

ENGINE_REGISTER_RET = """\
RegisterNpuBinary aic ret 107000
RegisterNpuBinary aiv ret 107000

[FATAL]  Acl return error engine/kernels/ascend/paged_attn/paged_attn.cc:88, with ERROR 561103

[FATAL]  Acl return error engine/kernels/ascend/paged_attn/paged_attn.cc:94, with ERROR 161001
"""

ENGINE_REGISTER_OK = """\
RegisterNpuBinary aic ret 0
RegisterNpuBinary aiv ret 0
[FATAL]  Acl return error engine/kernels/ascend/paged_attn/paged_attn.cc:88, with ERROR 561103
"""

ENGINE_ACL_CHECK = """\
[FATAL]  Acl return error engine/kernels/ascend/rope/rope.cc:52, with ERROR 561103
"""

CAPTURED_SYNC = """\
CANN error: EE9999: Inner Error!
EE9999: [PID:  [51234] 2026-02-03-04:05:06.007.008 Not allow to synchronize captured stream stream_id=3.[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:880]
TraceBack (most recent call last):
rtStreamSynchronize execute failed, reason=[stream is captured][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
synchronize stream failed, runtime result = 107027[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""

LIBRARY_BACKEND_CODE = """\
Traceback (most recent call last):
  File "translate.py", line 12, in <module>
    out = model.translate_batch(batch)
RuntimeError: CANN failed with error 100024
"""

LIBRARY_BACKEND_CODE_UNLABELLED = """\
Traceback (most recent call last):
  File "translate.py", line 12, in <module>
    out = model.translate_batch(batch)
RuntimeError: CANN failed with error 100025
"""

FRAMEWORK_ACL_CHECK = """\
[2026-04-01 10:00:00.000010 +08:00] [KVSTORE] [E] ACL ERROR: api=aclrtMallocHost, code=107002, caller=Alloc,host_buf.cc:61. [100,101] [acl_api.cc:30,Check]
[2026-04-01 10:00:00.000020 +08:00] [KVSTORE] [W] Pool empty, falling back to plain host memory(65536). [100,101] [pool.cc:40,Take]
"""


def test_onnxruntime_header_gives_level_and_time() -> None:
    scan = scan_text("serve.log", EP_CALL_THEN_NODE)
    first = scan.events[0]
    assert first.level == "ERROR"
    assert first.timestamp is not None
    assert first.timestamp.year == 2024
    assert first.message.startswith("CANN failure 500002")


def test_execution_provider_call_is_the_first_error_before_the_node_summary() -> None:
    diagnosis = diagnose_text("serve.log", EP_CALL_THEN_NODE)
    assert_reads(diagnosis, "operator", first_error="CANN failure 500002")


def test_repeated_acl_init_in_the_provider_is_a_config_error() -> None:
    diagnosis = diagnose_text("serve.log", EP_REPEAT_INIT)
    assert_reads(diagnosis, "config", first_error="ACL_ERROR_REPEAT_INITIALIZE")


def test_node_summary_alone_still_names_an_operator_failure() -> None:
    diagnosis = diagnose_text("serve.log", NODE_ONLY)
    assert_reads(diagnosis, "operator", first_error="running Gemm node")


def test_refused_kernel_binary_comes_before_the_failing_launch() -> None:
    diagnosis = diagnose_text("engine.log", REFUSED_KERNEL_BINARY)
    assert_reads(diagnosis, "operator", first_error="Kernel binary register failure! ret 107000")


def test_an_engines_registration_call_with_a_nonzero_ret_is_the_first_error() -> None:
    diagnosis = diagnose_text("engine.log", ENGINE_REGISTER_RET)
    assert_reads(diagnosis, "operator", first_error="RegisterNpuBinary aic ret 107000")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_registration_that_returned_zero_leaves_the_failing_launch_first() -> None:
    diagnosis = diagnose_text("engine.log", ENGINE_REGISTER_OK)
    assert_reads(diagnosis, "operator", first_error="with ERROR 561103")


def test_engine_acl_check_is_labelled_by_the_operator_code() -> None:
    diagnosis = diagnose_text("engine.log", ENGINE_ACL_CHECK)
    assert_reads(diagnosis, "operator", first_error="with ERROR 561103")


def test_captured_stream_headline_beats_the_runtime_result_line() -> None:
    diagnosis = diagnose_text("server.log", CAPTURED_SYNC)
    assert diagnosis.first_error is not None
    assert "Not allow to synchronize captured stream" in diagnosis.first_error.text


def test_framework_acl_check_is_read_and_labelled_by_its_code() -> None:
    diagnosis = diagnose_text("store.log", FRAMEWORK_ACL_CHECK)
    assert_reads(diagnosis, "config", first_error="api=aclrtMallocHost, code=107002")


def test_a_librarys_cann_backend_code_is_read_from_the_acl_table() -> None:
    """A library with its own CANN backend says only that the backend failed and the ACL
    code; 100024 (no operator found) is an op the backend has no implementation for."""
    diagnosis = diagnose_text("translate.log", LIBRARY_BACKEND_CODE)
    assert_reads(diagnosis, "operator", first_error="CANN failed with error 100024")


def test_a_backend_code_whose_entry_names_no_label_does_not_decide_it() -> None:
    # 100025 (an op that could not be loaded) is documented without a category
    diagnosis = diagnose_text("translate.log", LIBRARY_BACKEND_CODE_UNLABELLED)
    assert diagnosis.category != "operator"


def test_a_graph_engine_code_on_the_providers_single_op_call_offers_the_installation() -> None:
    """docs/labelling.md#wrappers: the provider's single-op compile-and-run call that returns a
    graph-engine code is read like torch_npu's single-op headline, with the release (config)
    and the toolkit (driver_env) beside the op."""
    diagnosis = diagnose_text("serve.log", EP_CALL_THEN_NODE)
    assert diagnosis.category == "operator"
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_parameter_code_on_the_same_call_offers_no_installation() -> None:
    diagnosis = diagnose_text("serve.log", EP_SINGLE_OP_INVALID_PARAM)
    assert_reads(diagnosis, "operator", first_error="CANN failure 100000")
    assert "driver_env" not in {alt.category for alt in diagnosis.alternatives}
