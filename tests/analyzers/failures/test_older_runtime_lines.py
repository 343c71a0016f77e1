"""Two line forms of older CANN and torch_npu 1.x releases that carry the failure's reason.

- The runtime's kernel-task line printed in lower case under a bare `[ERROR] RUNTIME(pid)`
  header, as the 1.x shell output shows it after torch_npu's op-run wrapper
  (`Run:.../OpParamMaker.h:N NPU error,NPU error code is:500002`). The wrapper only says an
  op run failed; the runtime's line names the device task that failed and how (retCode
  0x28: an AI CPU kernel did not finish, 507017), so it is the first error and the label is
  the device's (docs/labelling.md, "An operator name decides nothing").
- The graph engine's engine-assignment line in a plog (`GetDNNEngineName: ... (assign engine
  failed) ... Op type X of ops kernel AIcoreEngine is unsupported, reason: ...`), written with
  a capital "Op" and no EZ code: the op store has no kernel for the op or its input, which is
  the operator's limit (`operator`), not a device core failing because "AIcore" is named.
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

OP_RUN_WRAPPER = (
    "RuntimeError: Run:/build/ptadapter/aten/src/ATen/native/npu/utils/OpParamMaker.h:271 "
    "NPU error,NPU error code is:500002\n"
)

LOWER_CASE_RUNTIME = (
    OP_RUN_WRAPPER
    + "[ERROR] RUNTIME(50412)kernel task happen error, retCode={ret}, [{kind}].\n"
    + "[ERROR] RUNTIME(50412)aicpu kernel execute failed, device_id=1, stream_id=7, task_id=3, "
    "fault so_name=, fault kernel_name=, extend_info=.\n"
)


def test_a_lower_case_kernel_task_line_is_the_device_failure_under_the_op_run_wrapper() -> None:
    text = LOWER_CASE_RUNTIME.format(ret="0x28", kind="aicpu timeout")
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "aicore_timeout", first_error="retCode=0x28, [aicpu timeout]")


def test_a_lower_case_kernel_task_line_with_another_code_is_not_a_core_failure() -> None:
    # retCode 0x91 is an FFTS+ batch timeout (507048), read like the collective's wait
    text = LOWER_CASE_RUNTIME.format(ret="0x91", kind="fftsplus timeout").replace(
        "aicpu kernel execute failed", "task execute finished"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "aicore_timeout"


GE_ENGINE_ASSIGNMENT = (
    "[ERROR] GE(7301,python3.7):2021-05-06-07:08:09.101.112 [dnnengine_manager.cc:266]7340 "
    "GetDNNEngineName: ErrorNo: 1343242282(assign engine failed) GetDNNEngineName:Op type "
    "RoiAlignGrad of ops kernel AIcoreEngine is unsupported, reason:the dtype of input in op "
    "desc is not supported in op store.\n"
)


def test_the_graph_engine_finding_no_kernel_for_an_op_is_the_operator() -> None:
    diagnosis = diagnose_text("plog-7301_20210506070809.log", GE_ENGINE_ASSIGNMENT)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert "Op type RoiAlignGrad of ops kernel AIcoreEngine is unsupported" in (
        diagnosis.first_error.text
    )


def test_an_engine_chosen_for_an_op_is_no_failure() -> None:
    text = (
        "[INFO] GE(7301,python3.7):2021-05-06-07:08:09.101.112 [dnnengine_manager.cc:240]7340 "
        "GetDNNEngineName: Op type RoiAlignGrad of ops kernel AIcoreEngine is selected.\n"
    )
    diagnosis = diagnose_text("plog-7301_20210506070809.log", text)
    assert diagnosis.category != "operator"
