"""Failures of the runtimes and tools used on Ascend inference cards and boards.

The offline model builder (ATC) stops a conversion when its ONNX parser has no parser for an
op type of the model (E19010, under its own `ATC run failed` line), whatever case a paste keeps. An inference backend's
first call on a chip generation its operator library has no path for answers that support
for the chip is not implemented. A runtime written for cards driven from a separate host
refuses a feature on a board that runs its own host ("offline" mode). ACL applications
check each call with a macro that prints only the source site and the code, and crash when
they go on with what the failed call did not give them.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ATC_NO_PARSER = """\
ATC start working now, please wait for a moment.
ATC run failed, Please check the detail log, Try 'atc --help' for more information
E19010: No parser is registered for Op [deform_conv_412, optype [ai.onnx::11::DeformConv2dPack]].
        Model parse to graph failed, graph name:edvr.[FUNC:ModelParseToGraph][FILE:onnx_parser.cc][LINE:851]
        ATC model parse ret fail.[FUNC:ParseGraph][FILE:omg.cc][LINE:790]
"""

ATC_NO_PARSER_AS_PASTED = """\
E19010:No parser is registered for op [/encoder/layer.2/fc1/QLinearMatMul,optype [ai.onnx::13::QLinearMatMul]].

Solution:check the installed package version, and see the operator list of the release.
"""

PARSER_FOUND = """\
[INFO] parser is registered for op [/encoder/layer.2/fc1/MatMul], optype [ai.onnx::13::MatMul]
ATC run success, welcome to the next use.
"""

ATC_FAILED_ALONE = """\
ATC start working now, please wait for a moment.
ATC run failed, Please check the detail log, Try 'atc --help' for more information
"""

CHIP_NOT_IMPLEMENTED = """\
llama_model_load: loading model from '/models/qwen-1.8b-f16.gguf'
/build/ggml/src/ggml-cann/ggml-cann.cpp:71: CANN error
CANN error: EZ9903: [PID: 20417] 2026-02-11-08:30:12.441.903 support for Ascend310B4 is not implemented
        Solution: In this scenario, collect the plog when the fault occurs and locate the fault based on the plog.

  current device: 0, in function ggml_backend_cann_buffer_type_get_alloc_size
"""

OFFLINE_MODE_FEATURE = """\
[E:onnxruntime:,  sequential_executor.cc:371 Execute] Non-zero status code returned while running MatMul node. Name:'head_fc'  Status Message: CANN errorEE9999: Inner Error!
EE9999  get device msg feature can not support offline mode.[FUNC:GetDevMsg][FILE:api_impl.cc][LINE:3391]
rtGetDevMsg execute failed, reason=[feature not support][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:52]
"""

APP_CHECK_THEN_CRASH = """\
[VideoInput::Init] camera.h264 codec name:h264
[DvppDecoder::Init] h: 1080 w:1920output_size: 3110400
/opt/app/tracker/src/om_runner.cpp:27 aclError:145000
/opt/app/tracker/src/om_runner.cpp:31 aclError:100000
./start.sh: line 9:  3315 Segmentation fault      ./bin/tracker -c $1
"""


def test_a_model_op_the_converter_cannot_parse_is_the_op_with_config_beside() -> None:
    diagnosis = diagnose_text("atc.log", ATC_NO_PARSER)
    assert_reads(
        diagnosis,
        "operator",
        first_error="No parser is registered for Op [deform_conv_412",
        beside=("config",),
    )


def test_the_missing_parser_reads_the_same_in_lower_case_and_glued_to_its_code() -> None:
    diagnosis = diagnose_text("atc.log", ATC_NO_PARSER_AS_PASTED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="No parser is registered for op [/encoder/layer.2/fc1",
        beside=("config",),
    )
    assert diagnosis.confidence >= 0.5


def test_a_parser_the_converter_found_is_no_failure() -> None:
    diagnosis = diagnose_text("atc.log", PARSER_FOUND)
    assert diagnosis.first_error is None


def test_the_converters_closing_line_alone_is_still_a_failure() -> None:
    diagnosis = diagnose_text("atc.log", ATC_FAILED_ALONE)
    assert diagnosis.first_error is not None
    assert "ATC run failed" in diagnosis.first_error.text
    assert "offline model builder" in diagnosis.root_cause


def test_an_operator_library_without_a_path_for_the_chip_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("server.log", CHIP_NOT_IMPLEMENTED)
    assert_reads(diagnosis, "config", first_error="support for Ascend310B4 is not implemented")
    assert {"operator", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_feature_the_board_lacks_in_offline_mode_is_config() -> None:
    diagnosis = diagnose_text("infer.log", OFFLINE_MODE_FEATURE)
    assert_reads(diagnosis, "config", first_error="offline mode", beside=("driver_env",))


def test_an_applications_acl_check_comes_before_its_crash() -> None:
    diagnosis = diagnose_text("app.log", APP_CHECK_THEN_CRASH)
    assert diagnosis.first_error is not None
    assert "om_runner.cpp:27 aclError:145000" in diagnosis.first_error.text
    assert diagnosis.category != "device_fault"


# onnxruntime parses each execution provider's options before it creates the provider; an
# option it cannot read (a value that is no number, a key the provider does not have) makes the
# provider fail, and the session falls back to the CPU. The refusal is `config`.
EP_OPTION_UNPARSED = """\
*************** EP Error ***************
EP Error /src/onnxruntime/core/providers/cann/cann_execution_provider_info.cc:40 static onnxruntime::CANNExecutionProviderInfo onnxruntime::CANNExecutionProviderInfo::FromProviderOptions(const onnxruntime::ProviderOptions&) [ONNXRuntimeError] : 1 : FAIL : provider_options_utils.h:151 Parse Failed to parse provider option "npu_mem_limit": parse_string.h:99 ParseStringWithClassicLocale Failed to parse value: "16 GB"
Falling back to ['CPUExecutionProvider'] and retrying.
****************************************
"""

EP_OPTION_UNKNOWN = """\
onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : provider_options_utils.h:146 Parse Unknown provider option: "enable_npu_graph".
"""

EP_OPTIONS_LISTED = """\
session providers: CANNExecutionProvider, CPUExecutionProvider
provider option "npu_mem_limit" = 17179869184
"""


def test_a_provider_option_onnxruntime_cannot_read_is_config() -> None:
    assert_reads(
        diagnose_text("infer.log", EP_OPTION_UNPARSED),
        "config",
        first_error='Failed to parse provider option "npu_mem_limit"',
        rule="cfg.ep_provider_option_refused",
    )
    assert_reads(
        diagnose_text("infer.log", EP_OPTION_UNKNOWN),
        "config",
        first_error='Unknown provider option: "enable_npu_graph"',
        rule="cfg.ep_provider_option_refused",
    )


def test_a_provider_option_listed_in_the_log_is_no_refusal() -> None:
    diagnosis = diagnose_text("infer.log", EP_OPTIONS_LISTED)
    assert "cfg.ep_provider_option_refused" not in rules_of(diagnosis)
