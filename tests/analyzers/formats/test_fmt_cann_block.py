"""CANN error-manager blocks: continued headlines and the device's own call trace."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str):
    return scan_file(io.BytesIO(text.encode()), FileInfo("worker.log", FileKind.RANK_LOG, 3))


def test_an_open_headline_takes_its_text_from_the_next_lines():
    text = (
        "aclnnQuantMatmulWeightNz failed, error code is 161002\n"
        "AclNN_Parameter_Error(EZ1001):\n"
        "Tensor scale not implemented for DT_FLOAT16,\n"
        "should be in dtype support list\n"
        "[DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT].\n"
    )
    events = scan(text).events
    assert [(e.line, e.codes) for e in events] == [(1, ("161002",)), (3, ("EZ1001",))]
    assert events[1].text == "Tensor scale not implemented for DT_FLOAT16,"
    assert events[1].message == (
        "AclNN_Parameter_Error(EZ1001): Tensor scale not implemented for DT_FLOAT16, "
        "should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]."
    )


def test_trace_lines_without_keywords_are_still_read():
    text = (
        "[PID: 959] 2026-08-06-05:15:23.957.311 Device_Absent/Abnormal(EL0001): Device not found or invalid.\n"
        "        Possible Cause: Device does not exist or is abnormal.\n"
        "        Solution: Check the error messages in the log.\n"
        "        TraceBack (most recent call last):\n"
        "        Device[1] lost heartbeat.[FUNC:SyncTask][FILE:direct_hwts_engine.cc][LINE:915]\n"
        "        wait for compute device to finish failed, runtime result = 507010.[FUNC:ReportCallError]"
        "[FILE:log_inner.cpp][LINE:572]\n"
        "\n"
        "a normal line afterwards\n"
    )
    events = scan(text).events
    assert [(e.line, e.kind, e.source) for e in events] == [
        (1, EventKind.ERROR, "cann"),
        (5, EventKind.ERROR, "cann"),
        (6, EventKind.ERROR, "cann"),
    ]
    assert events[0].codes == ("EL0001",)
    assert events[2].codes == ("507010",)
    assert events[0].pid == 959
    assert events[0].timestamp.isoformat() == "2026-08-06T05:15:23.957311"


def test_headline_pid_time_and_code_are_read():
    text = "EE9999[PID: 227098] 2027-02-24-11:22:22.239.370 (EE9999):  rtEventQueryStatus execution failed, reason=aicore timeout[FUNC:FuncErrorReason]\n"
    [event] = scan(text).events
    assert event.codes == ("EE9999",)
    assert event.timestamp.isoformat() == "2027-02-24T11:22:22.239370"
    assert event.rank == 3


def test_a_headline_cut_after_a_comma_is_read_with_its_next_line():
    text = (
        "E89999: Inner Error!\n"
        "E89999[PID: 5120] 2026-03-07-09:12:44.201.377 (E89999):  op[SwiGluQuant],\n"
        "when group size is odd the quant scale must be per token, got per channel.\n"
        "[FUNC:CheckScaleMode][FILE:swi_glu_quant_tiling.cpp][LINE:211]\n"
    )
    events = scan(text).events
    assert [e.line for e in events] == [1, 3]
    assert events[1].text.startswith("when group size is odd")
    assert events[1].message.startswith("E89999[PID: 5120]")
    assert "op[SwiGluQuant], when group size is odd" in events[1].message
    assert events[1].message.endswith("[LINE:211]")


def test_a_comma_cut_headline_that_states_the_fault_is_cited_at_the_headline():
    # labelling guide: "An error-manager sentence the writer wrapped"
    text = (
        "RuntimeError: npu_weight_quant_batchmatmul: call aclnnWeightQuantBatchMatmulV2 failed, error code is 161002\n"
        "AclNN_Parameter_Error(EZ1001): Tensor antiquantScale not implemented for DT_FLOAT,\n"
        "should be in dtype support list [DT_FLOAT16, DT_BFLOAT16].\n"
    )
    events = scan(text).events
    assert [(e.line, e.codes) for e in events] == [(1, ("161002",)), (2, ("EZ1001",))]
    assert events[1].text.startswith("AclNN_Parameter_Error(EZ1001): Tensor antiquantScale")
    assert events[1].message.endswith("should be in dtype support list [DT_FLOAT16, DT_BFLOAT16].")


def test_a_comma_cut_headline_after_its_pid_and_time_is_cited_at_the_headline():
    text = (
        "EZ9999: [PID: 7702] 2026-05-11-08:30:02.114.905 Tensor weight format FRACTAL_NZ not supported here,\n"
        "expected ND for this layout.\n"
    )
    [event] = scan(text).events
    assert event.line == 1
    assert event.message.endswith("expected ND for this layout.")


def test_a_complete_headline_does_not_take_the_line_below():
    text = (
        "E89999[PID: 5120] 2026-03-07-09:12:44.201.377 (E89999):  op[SwiGluQuant], group size 3 is odd.\n"
        "WARNING: falling back to the unfused path\n"
    )
    events = scan(text).events
    assert events[0].line == 1
    assert events[0].message.endswith("group size 3 is odd.")
    assert all(e.line != 1 or "falling back" not in e.message for e in events)


def test_a_comma_cut_headline_does_not_take_a_cpp_backtrace_for_its_sentence():
    text = (
        "EZ9999: Inner Error!\n"
        "EZ9999[PID: 23817] 2026-01-19-16:41:08.731.562 (EZ9999):  get unsupported atten_mask shape, "
        "the shape is [1, 6902]. B=[1], N=[12], Sq=[6902], Skv=[6902],\n"
        "frame #7: <unknown function> + 0xd29cc (0xffff8a1e29cc in /lib/aarch64-linux-gnu/libstdc++.so.6)\n"
        "frame #8: <unknown function> + 0x80398 (0xffff8a3c0398 in /lib/aarch64-linux-gnu/libc.so.6)\n"
    )
    events = scan(text).events
    headline = next(e for e in events if "atten_mask" in e.message)
    assert headline.line == 2
    assert "frame #" not in headline.message
    assert all("frame #" not in e.message for e in events if e.kind == EventKind.ERROR)


def test_a_comma_cut_headline_stops_at_the_exception_origin_line():
    text = (
        "E89999[PID: 5120] 2026-03-07-09:12:44.201.377 (E89999):  op[SwiGluQuant],\n"
        "Exception raised from Run at build/CMakeFiles/torch_npu.dir/compiler_depend.ts:211 (most recent call first):\n"
    )
    events = scan(text).events
    assert events[0].line == 1
    assert "Exception raised" not in events[0].message


def test_a_bare_failed_headline_takes_its_indented_reason_from_the_next_lines():
    text = (
        "E90003: Compile operator failed\n"
        "        float16 of tbe.dsl.vmuls is not supported.\n"
        "        optype: [Muls]\n"
        "[ERROR] 2026-05-04-08:09:10 (PID:812, Device:0, RankID:-1) ERR01100 OPS call acl api failed\n"
    )
    events = scan(text).events
    joined = next(e for e in events if "E90003" in e.codes)
    assert joined.line == 2
    assert joined.message == (
        "E90003: Compile operator failed float16 of tbe.dsl.vmuls is not supported. optype: [Muls]"
    )
    assert all("ERR01100" not in e.message for e in events if e is joined)


def test_a_pasted_bare_headline_with_its_reason_at_the_same_indent_is_one_line():
    text = (
        "  step 0 starting\n"
        "  E90003: Compile operator failed\n"
        "  int64 of tbe.dsl.vadd is not supported.\n"
    )
    [event] = [e for e in scan(text).events if e.kind == EventKind.ERROR]
    assert event.line == 3
    assert "Compile operator failed int64 of tbe.dsl.vadd is not supported." in event.message


def test_a_bare_headline_does_not_take_a_new_record_for_its_reason():
    for following in (
        "Traceback (most recent call last):\n",
        "[ERROR] 2026-05-04-08:09:10 (PID:812, Device:0, RankID:-1) ERR01100 OPS call acl api failed\n",
        "RuntimeError: The Inner error is reported as above.\n",
        "        TraceBack (most recent call last):\n",
    ):
        events = scan("E90003: Compile operator failed\n" + following).events
        headline = next(e for e in events if "E90003" in e.codes)
        assert headline.line == 1, following
        assert headline.message == "E90003: Compile operator failed", following


def test_a_headline_that_gives_its_reason_does_not_take_the_line_below():
    text = (
        "E90003: Compile operator failed, cause: Template constraint, detailed information: "
        "bfloat16 of tbe.dsl.vexp is not supported.\n"
        "        optype: [Exp]\n"
    )
    headline = next(e for e in scan(text).events if "E90003" in e.codes)
    assert headline.line == 1
    assert "optype" not in headline.message
