"""The code tables say where each code was read, and never guess a code from its neighbours.

docs/labelling.md#codes-are-read-from-documents-not-from-neighbours: a number no document
lists is unknown except for what a documented range rule says.
"""

from __future__ import annotations

import pytest

from analyzers.classify.errorcodes import CODE_TABLES
from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

KNOWLEDGE = load_knowledge()
CODES = KNOWLEDGE.codes


def all_entries():
    for table in CODE_TABLES:
        yield from CODES.tables[table].values()
    yield from CODES.families.values()
    yield from CODES.acl_ranges.values()
    yield from CODES.pta_kinds.values()


def test_every_entry_names_a_known_source_document() -> None:
    for info in all_entries():
        assert info.source in CODES.sources, (info.table, info.code)


@pytest.mark.parametrize(
    ("first", "last", "source"),
    [
        (107000, 107041, "rt_error_codes"),  # runtime parameter errors in the header
        (207000, 207020, "rt_error_codes"),  # runtime resource errors
        (507000, 507057, "rt_error_codes"),  # runtime inner errors
        (507899, 507915, "rt_error_codes"),
        (100000, 100045, "acl_error_doc"),
        (200000, 200007, "acl_error_doc"),
        (500000, 500005, "acl_error_doc"),
    ],
)
def test_acl_tables_cover_the_ranges_their_documents_list(first: int, last: int, source: str):
    for number in range(first, last + 1):
        info = CODES.tables["acl"].get(str(number))
        assert info is not None, number
        assert info.source == source
        assert not info.inferred


def test_hccl_return_codes_cover_the_header() -> None:
    assert sorted(map(int, CODES.tables["hccl"])) == list(range(25))
    assert {info.source for info in CODES.tables["hccl"].values()} == {"hccl_types"}


@pytest.mark.parametrize(
    ("code", "category", "meaning_word"),
    [
        ("207000", "config", "not support"),  # its neighbour 207001 is memory; it is not
        ("207001", "oom", "memory"),
        ("207018", "oom", "out of memory"),
        ("507011", None, "model"),  # model execute failed names no label by itself
        ("561003", "driver_env", "kernel"),  # the aclnn page: op binary package missing
    ],
)
def test_listed_codes_carry_their_own_meaning(code: str, category, meaning_word: str) -> None:
    info = CODES.lookup(code)
    assert info is not None
    assert info.category == category
    assert meaning_word in (info.meaning + info.cause).lower()


@pytest.mark.parametrize(
    ("code", "category"),
    [
        ("207099", None),  # class 2 says "resources or hardware fit": no failure kind
        ("107999", None),
        ("507990", None),
        ("561777", "operator"),  # the aclnn page: 561xxx are the op library's inner errors
    ],
)
def test_unlisted_numbers_get_only_their_documented_range_rule(code: str, category) -> None:
    info = CODES.lookup(code)
    assert info is not None
    assert (info.code, info.category, info.inferred) == (code, category, True)
    assert info.source in ("acl_error_doc", "aclnn_doc")


def test_a_number_outside_every_documented_class_is_unknown() -> None:
    assert CODES.lookup("907001") is None


@pytest.mark.parametrize(("prefix", "last"), [("EI", 20), ("EL", 15)])
def test_hccl_and_driver_error_manager_codes_cover_their_documented_lists(prefix, last) -> None:
    for number in range(1, last + 1):
        info = CODES.tables["cann"].get(f"{prefix}{number:04d}")
        assert info is not None, f"{prefix}{number:04d}"
        assert info.source == "cann_errorcode_doc"


# A runtime block whose value no document we read explains, under no HCCL call.
PHYID_BLOCK_ALONE = """\
EE9999: Inner Error!
EE9999: [PID: 30412] 2026-02-09-14:02:11.507.220 get error: phyid:6 realDeviceId:6 is err:0x7010003[FUNC:GetDeviceIndexByPhyId][FILE:api_error.cc][LINE:1918]
        TraceBack (most recent call last):
       rtGetDeviceIndexByPhyId execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""


def test_a_hex_value_no_document_explains_stays_unknown() -> None:
    """docs/labelling.md#codes-are-read-from-documents-not-from-neighbours: `0x7010003` in a
    device-id lookup is shown as printed and given no meaning or label."""
    assert all("0x7010003" not in CODES.tables[table] for table in CODE_TABLES)
    assert CODES.lookup("0x7010003") is None
    diagnosis = diagnose_text("worker_6.log", PHYID_BLOCK_ALONE)
    assert_reads(diagnosis, "other", first_error="is err:0x7010003")
    assert diagnosis.confidence < 0.5


# The error lists of the tools around the runtime: the graph engine's (ATC options, model files,
# single-op arguments), the compiler front end's and kernel compiler's, the AI CPU's, ATC's older
# file and system-support lists and the operator library's public operator errors.
@pytest.mark.parametrize(
    ("codes", "source"),
    [
        (["E10001", "E10007", "E10041", "E10054", "E10501", "E13001", "E16002"], "ge_error_docs"),
        (["E19999"], "ge_error_docs"),
        (
            ["E20001", "E20007", "E22001", "E40001", "E40020", "E40021", "E40024"],
            "runtime_errcode_docs",
        ),
        (["E19000", "E19005", "E19010", "E19014", "E19015"], "atc_errcode_doc"),
        (["E30003", "E30006", "E30008", "E39001", "E39007"], "aicpu_errcode_doc"),
        (["EZ0501", "EZ3002", "EZ3003", "EZ9010"], "opbase_op_errors"),
    ],
)
def test_tool_error_codes_are_read_from_their_lists(codes: list[str], source: str) -> None:
    for code in codes:
        info = CODES.tables["cann"].get(code)
        assert info is not None, code
        assert info.source == source, code


@pytest.mark.parametrize(
    ("code", "category"),
    [
        ("E10054", "config"),  # a required ATC parameter left empty
        ("E10011", "config"),  # a shape dimension that is not a positive integer
        ("E16004", "config"),  # an ONNX file without a graph
        ("E10501", "operator"),  # an op type without a registered prototype
        ("EZ3002", "operator"),  # a kernel library that refuses the op's specification
        ("E22001", "operator"),  # the op's compile worker crashed
        ("E40020", "driver_env"),  # the kernel compiler's Python modules do not import
        ("E30006", "driver_env"),  # an operator package that fails the device's check
        ("E10059", None),  # a step failed: the text says which
        ("E19999", None),
    ],
)
def test_tool_error_codes_carry_the_label_of_what_they_report(code: str, category) -> None:
    info = CODES.lookup(code)
    assert info is not None
    assert (info.category, info.inferred) == (category, False)


@pytest.mark.parametrize("code", ["E10042", "E10028", "E50058", "E19021"])
def test_tool_codes_no_list_shows_stay_unknown(code: str) -> None:
    assert CODES.lookup(code) is None
