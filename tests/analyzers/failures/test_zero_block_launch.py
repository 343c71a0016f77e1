"""A kernel launched with no blocks is the op's tiling giving up; the tiling's reason comes first.

docs/labelling.md#an-operator-name-decides-nothing: the runtime refuses a launch whose block
(or core) count is 0, a count only the op's tiling step writes. The op failed (`operator`); when
the block's TraceBack keeps the tiling source's own refusal, that line says why and is the first
error, while a TraceBack line under a headline another rule reads only restates the headline.
The excerpts are ours, in the shapes torch_npu and the error manager print.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A training rank whose backward op ran asynchronously: the summary, the launch check with a
# block count of 0, and in its TraceBack the tiling source refusing the input layout.
ZERO_BLOCKS_WITH_REASON = """\
[rank1]: RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnDepthwiseConvBwd.
[rank1]: [ERROR] 2026-03-08-11:02:40 (PID:5120, Device:1, RankID:1) ERR00100 PTA call acl api failed.
[rank1]: [PID: 5120] 2026-03-08-11:02:40.300.811 Invalid_Argument(EE1003): LaunchKernelV2 failed because value 0 for parameter blockDim is invalid. Expected value: not equal to 0.
[rank1]:         Solution: 1.Check the input parameter range of the function. 2.Check the function invocation relationship.
[rank1]:         TraceBack (most recent call last):
[rank1]:         unsupported layout NCL, expect BSH/TND[FUNC:DepthwiseConvBwdTilingFunc][FILE:depthwise_conv_bwd_tiling.cpp][LINE:77]
[rank1]:         DepthwiseConvBwd do tiling failed, ret is -1.
[rank1]:         Check NnopbaseExecutorDoTiling(executor) failed
"""

# Counterexample: the launch check alone (a cut paste) is the op's failure and the first error.
ZERO_BLOCKS_ALONE = """\
[ERROR] 2026-03-08-11:02:40 (PID:5120, Device:1, RankID:1) ERR00100 PTA call acl api failed.
[PID: 5120] 2026-03-08-11:02:40.300.811 Invalid_Argument(EE1003): KernelLaunch failed because value 0 for parameter coreDim is invalid. Expected value: greater than 0.
"""

# Counterexample: under the op's own parameter check, a TraceBack tiling line restates it.
PARAMETER_CHECK_WITH_TRACE = """\
RuntimeError: call aclnnDepthwiseConv failed, detail:EZ1001: [PID: 812] 2026-05-06-07:08:09.010.011 the layout of x must be BSH or TND, but got NCL.
EZ1001: [PID: 812] 2026-05-06-07:08:09.010.011 the layout of x must be BSH or TND, but got NCL.
        TraceBack (most recent call last):
        unsupported layout NCL[FUNC:CheckLayout][FILE:depthwise_conv_tiling.cpp][LINE:51]
"""

# The tiling source's refusal pasted on its own, starting with its refusal word.
BARE_REFUSAL = """\
unsupported layout NCL, expect BSH/TND[FUNC:DepthwiseConvTilingFunc][FILE:depthwise_conv_tiling.cpp][LINE:77]
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (ZERO_BLOCKS_WITH_REASON, "unsupported layout NCL, expect BSH/TND"),
        (ZERO_BLOCKS_ALONE, "value 0 for parameter coreDim is invalid"),
        (PARAMETER_CHECK_WITH_TRACE, "the layout of x must be BSH or TND"),
        (BARE_REFUSAL, "unsupported layout NCL"),
    ],
    ids=["zero blocks with reason", "zero blocks alone", "parameter check", "bare refusal"],
)
def test_zero_block_launch(text: str, first: str) -> None:
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(diagnosis, "operator", first_error=first)


def test_bare_refusal_read_by_its_tiling_source() -> None:
    """A pasted tiling line that opens with its refusal word is read as the op's check."""
    diagnosis = diagnose_text("worker.log", BARE_REFUSAL)
    assert diagnosis.evidence[0].rule == "op.tiling_source_check_bare"


# The same refusal as an issue title keeps it, behind the tracker template's tag; a log line
# that opens with its level in brackets is still no bare refusal.
TITLE_WITH_TEMPLATE_TAG = (
    "[Bug]: 容器内运行报错 When layout is BNSD, the pseShift input is required, but now is"
    " nullptr![FUNC:CheckPseShift][FILE:fused_attention_tiling.cpp][LINE:640]\n"
)
LEVEL_TAGGED_LINE = (
    "[INFO] the pseShift input is required when enabled[FUNC:CheckPseShift]"
    "[FILE:fused_attention_tiling.cpp][LINE:640]\n"
)


def test_a_bare_refusal_behind_an_issue_template_tag_is_read_the_same() -> None:
    diagnosis = diagnose_text("issue_title.txt", TITLE_WITH_TEMPLATE_TAG)
    assert_reads(
        diagnosis,
        "operator",
        first_error="the pseShift input is required",
        rule="op.tiling_source_check_bare",
    )


def test_a_level_tag_in_brackets_is_not_an_issue_template_tag() -> None:
    diagnosis = diagnose_text("worker.log", LEVEL_TAGGED_LINE)
    assert "op.tiling_source_check_bare" not in rules_of(diagnosis)
