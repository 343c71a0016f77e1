"""torch_npu's E-level report of a failed op call, cut after the op-plugin source that names
the op (`[rank0]:[E... OpParamMaker.cpp:454] operator():.../op_plugin/ops/opapi/<Op>KernelOpApi.c`),
is still the worker's failed call: it leads a serving engine's once-a-minute note that its
workers did not answer, which is the wait and not a failure.

Fixtures are written in the shapes vLLM-Ascend and torch_npu print (worker and engine prefixes,
the c10 log header); pids, times, addresses and op names are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WAIT = (
    "(EngineCore_DP0 pid=4410) INFO 09-14 02:10:07 [shm_broadcast.py:681] No available shared "
    "memory broadcast block found in 60 seconds. This typically happens when some processes are "
    "hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).\n"
)
ACCESS = '(APIServer pid=3301) INFO:     10.9.0.17:51022 - "GET /health HTTP/1.1" 200 OK\n'
CUT_CALL = (
    "[rank2]:[E914 02:11:19.204811502 OpParamMaker.cpp:454] operator():../third_party/"
    "op-plugin/op_plugin/ops/opapi/MoeDistributeCombineV2KernelOpApi.c\n"
)


def test_a_cut_op_call_report_leads_the_engines_wait_note() -> None:
    diagnosis = diagnose_text(
        "prefill/serve.log", WAIT + ACCESS + WAIT.replace("02:10", "02:11") + CUT_CALL
    )
    assert_reads(diagnosis, "operator", first_error="MoeDistributeCombineV2KernelOpApi")


def test_a_cut_report_of_the_older_single_op_path_is_read_too() -> None:
    line = "[rank0]:[E302 11:40:02.000120455 OpParamMaker.cpp:454] operator():op_plugin/ops/aclops/IndexPutKernelNpu.cpp:88\n"
    diagnosis = diagnose_text("serve.log", WAIT + line)
    assert_reads(diagnosis, "operator", first_error="IndexPutKernelNpu")


def test_a_warning_at_the_same_place_leaves_the_wait_alone() -> None:
    warning = CUT_CALL.replace("[E914", "[W914")
    diagnosis = diagnose_text("prefill/serve.log", WAIT + warning)
    assert_reads(diagnosis, "hang", first_error="shm_broadcast")


def test_a_traceback_frame_in_the_op_plugin_package_is_no_failed_call() -> None:
    frame = '  File "/usr/local/lib/python3.11/site-packages/torch_npu/op_plugin/ops/opapi/__init__.py", line 3, in <module>\n'
    diagnosis = diagnose_text("prefill/serve.log", WAIT + frame)
    assert diagnosis.category == "hang"


def test_the_full_line_keeps_the_aclnn_wrappers_reading_and_code() -> None:
    full = (
        CUT_CALL.rstrip("\n")
        + "pp:184 NPU function error: call aclnnMoeDistributeCombineV4 failed, error code is 561000\n"
    )
    diagnosis = diagnose_text("prefill/serve.log", WAIT + full)
    assert diagnosis.category == "operator"
    assert "561000" in diagnosis.error_codes
