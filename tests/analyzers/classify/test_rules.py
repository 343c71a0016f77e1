"""The knowledge files load together: every category has a signature and advice, the
advice names known signatures, codes and verdicts, and held-back signatures stay held back
only inside their context."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from analyzers.classify.errorcodes import guess_table, load_codes, normalise_code
from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import KNOWLEDGE_DIR, load_knowledge, signatures_disabled
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core.yamlcheck import KnowledgeError
from analyzers.report import multirank, quiet_jobs

KNOWLEDGE = load_knowledge()


def test_every_category_but_healthy_and_hang_has_a_signature() -> None:
    covered = {sig.category for sig in KNOWLEDGE.signatures}
    assert set(TAXONOMY) - covered <= {"healthy"}


def test_every_category_has_next_actions() -> None:
    assert set(KNOWLEDGE.actions.categories) == set(TAXONOMY)


def test_actions_refer_to_known_signatures_and_codes() -> None:
    ids = {sig.id for sig in KNOWLEDGE.signatures}
    assert set(KNOWLEDGE.actions.signatures) <= ids
    for code in KNOWLEDGE.actions.codes:
        assert KNOWLEDGE.codes.lookup(code) is not None, code


def test_verdict_actions_refer_to_verdicts_the_ranks_can_give() -> None:
    source = "".join(Path(m.__file__).read_text() for m in (multirank, quiet_jobs))
    given = set(re.findall(r'Verdict\(\s*"(multirank\.\w+)"', source))
    assert KNOWLEDGE.actions.verdicts
    assert set(KNOWLEDGE.actions.verdicts) <= given


@pytest.mark.parametrize(
    ("code", "table", "category"),
    [
        ("507014", "acl", "aicore_timeout"),
        ("507046", "acl", "stream_sync"),
        ("561002", "acl", "operator"),
        ("EI0006", "cann", "hccl"),
        ("EZ9999", "cann", "operator"),  # listed without a label: takes the EZ family's
        ("EL0004", "cann", "oom"),
        ("EI0099", "cann", "hccl"),  # not listed: the EI family
        ("ERR02200", "pta", "hccl"),
        ("9", "hccl", "hccl"),
        ("207004", "acl", "driver_env"),
        ("207000", "acl", "config"),  # feature not supported, whatever 207001 means
        ("561044", "acl", "operator"),  # not listed: the documented 561xxx range (aclnn inner)
    ],
)
def test_code_table_lookup(code: str, table: str, category: str) -> None:
    info = KNOWLEDGE.codes.lookup(code, table)
    assert info is not None
    assert info.category == category
    assert info.meaning


def test_an_unlisted_number_gets_only_its_documented_class_and_no_label() -> None:
    info = KNOWLEDGE.codes.lookup("207099")
    assert info is not None
    assert (info.code, info.table, info.category) == ("207099", "acl", None)
    assert "class 2" in info.meaning


def test_hccl_codes_are_found_by_their_header_names() -> None:
    info = KNOWLEDGE.codes.lookup_label("HCCL_E_TIMEOUT")
    assert info is not None
    assert (info.code, info.label, info.role) == ("9", "HCCL_E_TIMEOUT", "symptom")


@pytest.mark.parametrize(
    ("raw", "code", "table"),
    [("[507014]", "507014", "acl"), ("ez9999", "EZ9999", "cann"), ("ERR00100.", "ERR00100", "pta"),
     ("0x25", "0x25", None)],
)  # fmt: skip
def test_codes_are_normalised_and_their_table_guessed(raw: str, code: str, table: str) -> None:
    assert normalise_code(raw) == code
    assert guess_table(code) == table


def test_grep_alternation_contains_every_keyword_escaped() -> None:
    alternation = KNOWLEDGE.grep_alternation()
    assert r"Kernel Run failed" in alternation
    assert r"Missing key\(s\) in state_dict" in alternation
    assert len(alternation.split("|")) >= len(KNOWLEDGE.keywords())


def test_code_with_unknown_category_is_rejected(tmp_path: Path) -> None:
    data = yaml.safe_load((KNOWLEDGE_DIR / "error_codes.yaml").read_text(encoding="utf-8"))
    data["acl"]["507014"]["category"] = "slow"
    path = tmp_path / "error_codes.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"acl: '507014': field 'category' is 'slow'"):
        load_codes(path)


def test_a_code_names_its_neighbour_labels_and_only_real_other_ones(tmp_path: Path) -> None:
    codes = load_codes(KNOWLEDGE_DIR / "error_codes.yaml")
    assert codes.lookup("107027", "acl").also == ("config",)
    assert codes.lookup("507011", "acl").also == ()
    data = yaml.safe_load((KNOWLEDGE_DIR / "error_codes.yaml").read_text(encoding="utf-8"))
    data["acl"]["107027"]["also"] = ["stream_sync"]  # its own label is no neighbour
    path = tmp_path / "error_codes.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"field 'also' must list other taxonomy labels"):
        load_codes(path)


def test_the_shipped_conditional_neighbours_name_the_collective_evidence() -> None:
    """An AI CPU exception is a collective's only beside a collective's lines
    (docs/labelling.md#ai-cpu-exceptions-that-carry-a-notify-wait-timeout)."""
    by_id = {signature.id: signature for signature in KNOWLEDGE.signatures}
    for rule in ("aicore.aicpu_exception", "aicore.aicpu_exception_code"):
        assert "hccl" not in by_id[rule].also
        assert [(label, ev.name) for label, ev in by_id[rule].also_if] == [("hccl", "collective")]


def test_signatures_held_back_are_unknown_only_inside_the_context() -> None:
    line = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"
    held = {"oom.device_out_of_memory", "oom.generic_out_of_memory"}

    with signatures_disabled(held):
        inside = {m.signature.id for m in match_line(line, (), load_knowledge())}
    outside = {m.signature.id for m in match_line(line, (), load_knowledge())}

    assert not inside & held
    assert held <= outside
