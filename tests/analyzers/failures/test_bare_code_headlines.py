"""An error-manager headline printed bare, its code opening the line with no `[PID: n]` and
no time, as the offline model builder (ATC), the graph engine and older CANN print it.

docs/labelling.md#wrappers: such a line is the error manager's record of what failed, read
as its `[PID: n]` twin is: it carries its code, the code table labels it (a code the table
does not list stays unknown), and it is the first error ahead of ATC's closing `ATC run
failed` line, whichever of the two comes first. A code quoted inside prose or a table row
is no headline, nor is glog's level letter and date (`E1129 07:25:37.499000 ...`).

The fixtures follow ATC's console output; shapes, paths, pids and times are made up.
"""

from __future__ import annotations

from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import load_knowledge
from analyzers.formats.codes import extract_codes
from tests.analyzers.excerpts import assert_reads, diagnose_text

KNOWLEDGE = load_knowledge()

START = "ATC start working now, please wait for a moment.\n"
CLOSING = "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n"
SHAPE = (
    "E10001: Value [1,3,-1,-1] for parameter [--input_shape] is invalid. Reason: maybe you set "
    "dynamic_shape without setting --dynamic_batch_size, --dynamic_image_size or "
    "--dynamic_dims.\n"
)
EMPTY_MODEL = (
    "E10054: The requied parameter [--model] for ATC is empty. Another possible reason is that "
    'the value of some parameter is not enclosed by quotation marks ("").\n'
)
# No error-code document we read lists E10042 (the GE list skips from E10041 to E10045).
UNLISTED = "E10042: Failed to build the graph. Reason: layer [conv1] has no weight blob.\n"


def test_a_bare_headline_is_the_first_error_ahead_of_the_closing_line_after_it() -> None:
    diagnosis = diagnose_text("convert/atc.log", START + SHAPE + CLOSING)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("E10001: Value [1,3,-1,-1] for parameter")
    assert diagnosis.category == "config"  # the code table's label for E10001
    assert "E10001" in diagnosis.error_codes


def test_a_bare_headline_printed_after_the_closing_line_is_still_the_first_error() -> None:
    diagnosis = diagnose_text("convert/atc.log", START + CLOSING + EMPTY_MODEL)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("E10054: The requied parameter [--model]")
    assert "E10054" in diagnosis.error_codes


def test_a_code_the_table_does_not_list_lends_the_headline_no_label() -> None:
    best = match_line(UNLISTED.strip(), extract_codes(UNLISTED), KNOWLEDGE)[0]
    assert best.signature.id == "tail.cann_bare_headline"
    assert best.category == "other"
    assert best.codes == ()
    listed = match_line(SHAPE.strip(), extract_codes(SHAPE), KNOWLEDGE)[0]
    assert (listed.category, [info.code for info in listed.codes]) == ("config", ["E10001"])


def test_a_bare_headline_printed_after_the_closing_line_is_labelled_by_its_documented_code() -> (
    None
):
    """E10054 (a required ATC parameter left empty) is in the graph engine's error list: a
    rejected option, `config`, whichever of it and `ATC run failed` comes first."""
    diagnosis = diagnose_text("convert/atc.log", START + CLOSING + EMPTY_MODEL)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("E10054: The requied parameter [--model]")


def test_a_bare_headline_under_a_cann_log_header_is_read_the_same_way() -> None:
    line = (
        "[ERROR] GE(41873,atc.bin):2026-03-04-10:11:12.131.415 [error_manager.cc:290]41873 " + SHAPE
    )
    diagnosis = diagnose_text("convert/atc.log", START + line + CLOSING)
    assert_reads(diagnosis, "config", first_error="E10001: Value [1,3,-1,-1] for parameter")


def test_a_code_quoted_in_prose_or_a_table_is_no_headline() -> None:
    quoted = (
        "the conversion stops with E10001: Value [x] for parameter [--input_shape] is invalid\n"
        "| `E10001: Check graph fail` | the ONNX graph breaks an ATC rule |\n"
    )
    diagnosis = diagnose_text("convert/atc.log", START + quoted + CLOSING)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("ATC run failed")


def test_a_glog_level_and_date_is_no_code() -> None:
    lines = (
        "E1001 00:12:01.000210  4127 converter.cc:88] model conversion failed: see the ATC log\n"
    )
    diagnosis = diagnose_text("convert/worker.log", lines)
    assert diagnosis.first_error is not None
    assert not any(code.startswith("E1") for code in diagnosis.error_codes)


# docs/labelling.md#late-device-blocks: a bare inner-error headline a process prints while it
# goes down after a recognised failure reports the teardown, as its [PID: n] twin does.
LATE_BARE_BLOCK = (
    "[rank0]:[E301 10:00:01.000000000 ProcessGroupHCCL.cpp:600] [Rank 0] Watchdog caught "
    "collective operation timeout: WorkHCCL(SeqNum=88, OpType=ALLREDUCE, Timeout(ms)=1800000) "
    "ran for 1800041 milliseconds before timing out.\n"
    "[rank0]: EE9999: rtStreamDestroy execution failed, reason=unknown[FUNC:FuncErrorReason]"
    "[FILE:error_message_manage.cc][LINE:53]\n"
)


def test_a_bare_teardown_headline_after_a_recognised_failure_is_its_aftermath() -> None:
    diagnosis = diagnose_text("job/rank0.log", LATE_BARE_BLOCK)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


# A runtime check that gives a code the table names as a root failure, then a bare headline
# whose code the table does not list: the check says what failed, the headline only that
# something did, so the check stays first (the headline still outranks a wrapper).
SYNC_CHECK = (
    "Call aclrtSynchronizeStream(reinterpret_cast<aclrtStream>(stream)) failed : 507015 at file "
    "/opt/plugin/backends/npu/runtime/runtime.cc line 377\n"
)
CHECK_THEN_UNLISTED = SYNC_CHECK + UNLISTED
# E10404 is documented (an output buffer smaller than its tensor needs) but carries no label or
# role of its own: printed after a device exception it is the exception's aftermath as often
# as an op's own refusal.
CHECK_THEN_BUFFER_REFUSAL = (
    SYNC_CHECK + "E10404: Output indexed [1] requires a 18446744073709551615 buffer, but 4096 "
    "(aligned) are allocated.\n"
)


def test_an_unlisted_bare_headline_stays_below_a_check_with_a_root_failure_code() -> None:
    diagnosis = diagnose_text("det/train.log", CHECK_THEN_UNLISTED)
    assert_reads(diagnosis, "aicore_timeout", first_error="failed : 507015")
    assert "E10042" in diagnosis.error_codes


def test_a_documented_buffer_refusal_without_a_label_stays_below_the_check() -> None:
    diagnosis = diagnose_text("det/train.log", CHECK_THEN_BUFFER_REFUSAL)
    assert_reads(diagnosis, "aicore_timeout", first_error="failed : 507015")
    info = KNOWLEDGE.codes.lookup("E10404")
    assert info is not None
    assert (info.source, info.category, info.role) == ("ge_error_docs", None, None)


# docs/labelling.md#wrappers: newer CANN releases open a device block with `Internal error!`
# where older ones print `Inner Error!`. Either wording only says that something failed, so the
# headline is generic and the block's own line below it (the runtime's reason) is the first
# error; a headline that goes on to say what failed stays a bare headline.
INTERNAL_HEADLINE = "EE9999: Internal error!\n"
SYNC_BLOCK = (
    "RuntimeError: npuSynchronizeDevice:../torch_npu/csrc/core/npu/NPUStream.cpp:600 NPU "
    "function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015\n"
    "[ERROR] 2026-02-03-04:05:06 (PID:4242, Device:0, RankID:-1) ERR00100 PTA call acl api "
    "failed\n"
    + INTERNAL_HEADLINE
    + "EE9999[PID: 4242] 2026-02-03-04:05:06.070.080 (EE9999):  rtDeviceSynchronizeWithTimeout "
    "execution failed, reason=aicore exception[FUNC:FuncErrorReason]"
    "[FILE:error_message_manage.cc][LINE:72]\n"
    "TraceBack (most recent call last):\n"
)


def test_the_internal_error_wording_is_a_generic_headline_like_inner_error() -> None:
    line = INTERNAL_HEADLINE.strip()
    best = match_line(line, extract_codes(line), KNOWLEDGE)[0]
    assert best.signature.id == "tail.inner_error_headline"
    assert best.category == "other"


def test_a_headline_that_says_what_failed_is_still_a_bare_headline() -> None:
    line = "EE9999: Internal stream of the device could not be created."
    best = match_line(line, extract_codes(line), KNOWLEDGE)[0]
    assert best.signature.id == "tail.cann_bare_headline"


def test_the_block_line_under_an_internal_error_headline_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/rank0.log", SYNC_BLOCK)
    assert diagnosis.category == "aicore_timeout"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text != INTERNAL_HEADLINE.strip()
    assert "error code is 507015" in diagnosis.first_error.text or (
        "reason=aicore exception" in diagnosis.first_error.text
    )
