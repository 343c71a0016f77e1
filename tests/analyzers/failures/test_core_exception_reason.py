"""The runtime's reason for a core exception, read whatever sentence it gives.

When a vector or AI Core stops on an exception, the error block's extend-info line carries the
runtime's reason in an `errorStr:` field (`The extend info: errcode:(...) errorStr: <sentence>`).
The field is only written for such a core, so any sentence there is the device's failure,
`aicore_timeout` by the corpus rule (docs/labelling.md#an-operator-name-decides-nothing), with
the op beside it. Under the block's headline (`there is an fftsplus aivector error exception`)
the headline stays the first error; a paste that kept only the reason line leads with it. A
field with no sentence says nothing.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

REASON_ONLY = """\
[rank3]: EZ9999: Inner Error!
[rank3]: EZ9999[PID: 70215] 2026-05-19-14:02:07.441.902 (EZ9999):  The extend info: errcode:(0, 0x800, 0) errorStr: {reason} fixp_error0 info: 0x0, fixp_error1 info: 0x0, fsmId:1, tslot:3
[rank3]: RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is IndexPut.
"""

WITH_HEADLINE = """\
[E OpParamMaker.cpp:273] call aclnnIndexPutImpl failed, detail:EZ9999: Inner Error!
EZ9999  The error from device(chipId:2, dieId:0), serial number is 4, there is an fftsplus aivector error exception, core id is 11, error code = 0, dump info: pc start: 0x12c0004a1000, current: 0x12c0004a1f60.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1164]
        TraceBack (most recent call last):
        The extend info: errcode:(0, 0x800, 0) errorStr: The UB address accessed by the VEC instruction is not aligned. fixp_error0 info:
RuntimeError: Sync:torch_npu/csrc/framework/OpCommand.cpp:190 NPU error, error code is 507015
"""


def test_the_reason_line_alone_is_the_core_exception() -> None:
    reason = "The UB address accessed by the VEC instruction is not aligned."
    diagnosis = diagnose_text("rank3.log", REASON_ONLY.format(reason=reason))
    assert diagnosis.category == "aicore_timeout"
    assert diagnosis.first_error is not None
    assert reason.rstrip(".") in diagnosis.first_error.text
    assert "aicore.extend_info_reason" in rules_of(diagnosis)
    assert "operator" in {alt.category for alt in diagnosis.alternatives}


def test_a_reason_an_older_rule_names_keeps_its_reading() -> None:
    reason = "Illegal instruction, which is usually caused by unaligned UUB addresses."
    diagnosis = diagnose_text("rank3.log", REASON_ONLY.format(reason=reason))
    assert_reads(diagnosis, "aicore_timeout", first_error="Illegal instruction")


def test_the_block_headline_stays_first_over_its_reason() -> None:
    diagnosis = diagnose_text("sft.log", WITH_HEADLINE)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="there is an fftsplus aivector error exception"
    )


def test_a_field_with_no_sentence_is_no_reason() -> None:
    text = REASON_ONLY.format(reason="").replace("errorStr:  fixp", "errorStr: fixp")
    diagnosis = diagnose_text("rank3.log", text)
    assert "aicore.extend_info_reason" not in rules_of(diagnosis)
