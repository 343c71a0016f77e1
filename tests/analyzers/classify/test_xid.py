"""NVIDIA's Xid numbers, read by their origin.

The driver's kernel-log line `NVRM: Xid (PCI:<bus id>): <n>, ...` says whose fault it was
through its number: 13, 31 and 43 are the job's own kernels on a GPU that is still fine, 48, 79
or 145 the board and its links, 119 and 120 the GPU's firmware. `knowledge/xid_codes.yaml`
holds each number with its meaning, origin and source; a number it does not list is unknown
and read as every Xid was before. An Xid that names an earlier one as its cause is read by
that earlier number. docs/labelling.md#an-xid-the-job-caused-or-the-board
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import KNOWLEDGE_DIR, load_knowledge
from analyzers.classify.signature_file import load_signatures
from analyzers.classify.xid import XID_FILE, load_xids
from analyzers.core.yamlcheck import KnowledgeError

TABLE = load_xids(KNOWLEDGE_DIR / XID_FILE)
KNOWLEDGE = load_knowledge()


def test_every_listed_xid_has_a_meaning_and_the_document_it_was_read_from() -> None:
    sources = yaml.safe_load((KNOWLEDGE_DIR / XID_FILE).read_text(encoding="utf-8"))["sources"]
    for number, info in TABLE.items():
        assert info.meaning, number
        assert info.source in sources, number


@pytest.mark.parametrize(
    ("number", "origin"),
    [
        ("13", "application"),  # graphics/compute engine exception
        ("31", "application"),  # MMU page fault: an illegal address
        ("43", "application"),  # channel stopped after the job's own error
        ("48", "hardware"),  # double-bit ECC
        ("63", "hardware"),  # row remapping / page retirement
        ("74", "hardware"),  # NVLink
        ("79", "hardware"),  # fallen off the bus
        ("94", "hardware"),  # contained ECC error
        ("119", "driver"),  # GSP RPC timeout
        ("120", "driver"),  # GSP error
        ("145", "hardware"),  # NVLink5 RLW
        ("149", "hardware"),  # NVLink5 NETIR
        ("45", None),  # tears down channels an earlier error hit: names no cause of its own
    ],
)
def test_the_origin_nvidias_documents_give_an_xid(number: str, origin: str | None) -> None:
    assert TABLE[number].origin == origin


@pytest.mark.parametrize("number", ["44", "200"])
def test_a_number_the_documents_do_not_list_is_left_unknown(number: str) -> None:
    assert number not in TABLE


PREFIX = "Mar  3 02:14:09 gpu-node7 kernel: NVRM: Xid (PCI:0000:65:00): "

READINGS = [
    ("page fault", "31, pid=12345, name=python, Ch 0000000b, intr 10000000. MMU Fault",
     "op.gpu_xid_application", "operator"),
    ("engine exception", "13, pid='<unknown>', name=<unknown>, Graphics SM Warp Exception",
     "op.gpu_xid_application", "operator"),
    ("stopped after the job's error", "43, pid=12345, name=python, Ch 00000008",
     "op.gpu_xid_application", "operator"),
    ("double-bit ECC", "48, pid=2211, name=python3, An uncorrectable double bit error (DBE)",
     "dev.gpu_xid_event", "device_fault"),
    ("GSP timeout", "119, pid=2211, name=python3, Timeout after 6s of waiting for RPC response",
     "dev.gpu_xid_event", "device_fault"),
    ("unlisted number", "44, pid=2211, name=python3, Ch 00000010",
     "dev.gpu_xid_event", "device_fault"),
    ("listed without an origin", "45, pid=2211, name=python3, Ch 00000010",
     "dev.gpu_xid_event", "device_fault"),
    ("teardown after NVLink", "45, pid=2207431, name=python3, Ch 00000001 caused by previous Xid 149",
     "dev.gpu_xid_event", "device_fault"),
    ("stopped after ECC", "43, pid=12345, name=python, Ch 00000008 caused by previous Xid 48",
     "dev.gpu_xid_event", "device_fault"),
    ("teardown after a page fault", "45, pid=12345, name=python, Ch 00000008 caused by previous Xid 31",
     "op.gpu_xid_application", "operator"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tail", "rule", "category"),
    [(tail, rule, category) for _, tail, rule, category in READINGS],
    ids=[name for name, *_ in READINGS],
)
def test_an_xid_line_is_read_by_its_numbers_origin(tail: str, rule: str, category: str) -> None:
    matches = match_line(PREFIX + tail, (), KNOWLEDGE)
    assert [(m.id, m.category) for m in matches] == [(rule, category)]


# A write-up or a ticket often masks the board's bus id before pasting the kernel log (`XX` or
# `xx` for the hex digits, stars); the number after it still says whose fault it was.
MASKED_BUS_IDS = [
    ("NVRM: Xid (PCI:0000:XX:00): 13, Graphics SM Warp Exception on (GPC 1, TPC 0, SM 1)",
     "op.gpu_xid_application", "operator"),
    ("NVRM: Xid (PCI:0000:xx:00.0): 43, pid=4242, name=python3, channel 0x00000005",
     "op.gpu_xid_application", "operator"),
    ("NVRM: Xid (PCI:****:**:**): 119, pid=2211, name=python3, Timeout after 6s of waiting for RPC",
     "dev.gpu_xid_event", "device_fault"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "rule", "category"), MASKED_BUS_IDS)
def test_an_xid_with_a_masked_bus_id_is_read_by_its_number(
    line: str, rule: str, category: str
) -> None:
    matches = match_line("Apr  9 10:11:12 gpu-node2 kernel: " + line, (), KNOWLEDGE)
    assert [(m.id, m.category) for m in matches] == [(rule, category)]


def test_a_bus_id_mask_does_not_make_other_words_an_xid() -> None:
    line = "Apr  9 10:11:12 gpu-node2 kernel: NVRM: Xid (PCI:XX): see the driver's catalog"
    assert not match_line(line, (), KNOWLEDGE)


def _write(tmp_path: Path, xids: dict, signature: dict) -> Path:
    (tmp_path / XID_FILE).write_text(
        yaml.safe_dump({"sources": {"doc": "a document"}, "xids": xids}), encoding="utf-8"
    )
    path = tmp_path / "signatures.yaml"
    path.write_text(yaml.safe_dump({"signatures": [signature]}), encoding="utf-8")
    return path


RULE = {
    "id": "demo.xid",
    "title": "Demo",
    "category": "operator",
    "subsystem": "operator",
    "role": "cause",
    "weight": 50,
    "keywords": ["Xid"],
    "regex": r"Xid (?P<xid>\d+)",
    "xid_origins": ["application"],
    "examples": ["Xid 31"],
    "counterexamples": ["Xid 79"],
}


def test_a_rule_holds_only_for_the_origins_it_names(tmp_path: Path) -> None:
    xids = {
        "31": {"name": "MMU", "meaning": "a page fault", "origin": "application", "source": "doc"},
        "79": {"name": "BUS", "meaning": "off the bus", "origin": "hardware", "source": "doc"},
    }
    (signature,) = load_signatures(_write(tmp_path, xids, RULE))
    assert signature.search("Xid 31") is not None
    assert signature.search("Xid 79") is None
    assert signature.search("Xid 44") is None  # unknown, and the rule does not ask for unknown


@pytest.mark.parametrize(
    ("xids", "rule", "message"),
    [
        ({"31": {"name": "M", "meaning": "m", "origin": "user", "source": "doc"}}, RULE,
         "field 'origin' is 'user'"),
        ({"31": {"name": "M", "meaning": "m", "source": "elsewhere"}}, RULE,
         "field 'source' is 'elsewhere'"),
        ({}, {**RULE, "xid_origins": ["cosmic"]}, "xid_origins must name"),
        ({}, {**RULE, "regex": r"Xid \d+"}, "xid_origins needs a group 'xid'"),
    ],
)  # fmt: skip
def test_a_malformed_xid_entry_or_rule_fails_naming_it(
    tmp_path: Path, xids: dict, rule: dict, message: str
) -> None:
    with pytest.raises(KnowledgeError, match=re.escape(message)):
        load_signatures(_write(tmp_path, xids, rule))
