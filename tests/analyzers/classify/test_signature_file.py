"""The signature file is read field by field, and a malformed entry fails with a message
that says where."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from analyzers.classify.signature_file import load_signatures
from analyzers.core.yamlcheck import KnowledgeError

GOOD = {
    "id": "demo.oom",
    "title": "Demo",
    "category": "oom",
    "subsystem": "memory",
    "role": "cause",
    "weight": 50,
    "keywords": ["out of memory"],
    "regex": "out of memory",
    "examples": ["NPU out of memory"],
    "counterexamples": ["memory ok"],
}


def write_signatures(tmp_path: Path, *entries: dict) -> Path:
    path = tmp_path / "signatures.yaml"
    path.write_text(yaml.safe_dump({"signatures": list(entries)}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"category": "cosmic_ray"}, "signature 'demo.oom': field 'category' is 'cosmic_ray'"),
        ({"subsystem": "stream"}, "subsystem 'stream' does not fit category 'oom'"),
        ({"role": "victim"}, "field 'role' is 'victim'"),
        ({"weight": 0}, "field 'weight' must be within 1-100"),
        ({"weight": "high"}, "field 'weight' must be int"),
        ({"regex": "out of (memory"}, "field 'regex' is not a valid regex"),
        ({"examples": []}, "field 'examples' must list at least one entry"),
        ({"counterexamples": None}, "missing field 'counterexamples'"),
        ({"keywords": [""]}, "field 'keywords' must list non-empty strings"),
        ({"culprit": "rank"}, "culprit group 'rank' is not a named group"),
        ({"category_from_code": True}, "need a code_table"),
        ({"code_table": "bios"}, "field 'code_table' is 'bios'"),
        ({"harmless_on": ["tpu"]}, "harmless_on must name stacks of ['ascend', 'cuda', 'cpu']"),
        ({"more_than": ["used", "size"]}, "more_than must name two groups of the regex"),
        ({"at_least": ["id", "count"]}, "at_least must name two groups of the regex"),
    ],
)
def test_malformed_signature_is_rejected_with_its_place(
    tmp_path: Path, change: dict, message: str
) -> None:
    path = write_signatures(tmp_path, {**GOOD, **change})
    with pytest.raises(KnowledgeError, match=re.escape(message)):
        load_signatures(path)


def test_duplicate_signature_ids_are_rejected(tmp_path: Path) -> None:
    path = write_signatures(tmp_path, GOOD, GOOD)
    with pytest.raises(KnowledgeError, match=r"duplicate signature id 'demo\.oom'"):
        load_signatures(path)


def test_unreadable_yaml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "signatures.yaml"
    path.write_text("signatures: [unclosed", encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"signatures\.yaml: cannot read"):
        load_signatures(path)


@pytest.mark.parametrize(
    "field",
    [
        "yields_to",
        "yields_to_earlier",
        "yields_to_later",
        "label_from_bundle",
        "needs_earlier",
        "waits_behind",
    ],
)
def test_a_signature_that_names_an_unknown_neighbour_is_rejected(
    tmp_path: Path, field: str
) -> None:
    path = write_signatures(tmp_path, {**GOOD, field: ["demo.nowhere"]})
    with pytest.raises(KnowledgeError, match=r"names \['demo\.nowhere'\]"):
        load_signatures(path)


def test_a_signature_reads_the_neighbours_it_yields_to_earlier(tmp_path: Path) -> None:
    other = {**GOOD, "id": "demo.timeout", "yields_to_earlier": ["demo.oom"]}
    path = write_signatures(tmp_path, GOOD, other)
    by_id = {sig.id: sig for sig in load_signatures(path)}
    assert by_id["demo.timeout"].yields_to_earlier == ("demo.oom",)
    assert by_id["demo.oom"].yields_to_earlier == ()


def test_a_signature_reads_the_lines_it_takes_its_label_from(tmp_path: Path) -> None:
    other = {**GOOD, "id": "demo.save_refused", "label_from_bundle": ["demo.oom"]}
    path = write_signatures(tmp_path, GOOD, other)
    by_id = {sig.id: sig for sig in load_signatures(path)}
    assert by_id["demo.save_refused"].label_from_bundle == ("demo.oom",)
    assert by_id["demo.oom"].label_from_bundle == ()


def test_a_signature_reads_the_lines_it_needs_earlier(tmp_path: Path) -> None:
    other = {**GOOD, "id": "demo.deadline", "needs_earlier": ["demo.oom"]}
    path = write_signatures(tmp_path, GOOD, other)
    by_id = {sig.id: sig for sig in load_signatures(path)}
    assert by_id["demo.deadline"].needs_earlier == ("demo.oom",)
    assert by_id["demo.oom"].needs_earlier == ()


@pytest.mark.parametrize("flag", ["rank_past_world", "interrupted", "generic_record"])
def test_a_signature_reads_a_flag_that_stages_after_it_decide_by(tmp_path: Path, flag: str) -> None:
    flagged = {**GOOD, "id": "demo.flagged", flag: True}
    path = write_signatures(tmp_path, GOOD, flagged)
    by_id = {sig.id: sig for sig in load_signatures(path)}
    assert getattr(by_id["demo.flagged"], flag) is True
    assert getattr(by_id["demo.oom"], flag) is False


def test_a_conditional_neighbour_is_read_with_its_evidence(tmp_path: Path) -> None:
    path = tmp_path / "signatures.yaml"
    data = {
        "neighbour_evidence": {"collective": {"labels": ["hccl"], "regex": r"\bHCCL\b"}},
        "signatures": [{**GOOD, "also_if": {"hccl": "collective"}}],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    (signature,) = load_signatures(path)
    ((label, evidence),) = signature.also_if
    assert (label, evidence.name, evidence.labels) == ("hccl", "collective", ("hccl",))
    assert evidence.regex is not None
    assert evidence.regex.search("[ERROR] hccl(1,python3)")


@pytest.mark.parametrize(
    ("also_if", "message"),
    [
        ({"hccl": "gossip"}, "'hccl' names unknown evidence 'gossip'"),
        ({"oom": "collective"}, "field 'also_if' must name other taxonomy labels, got 'oom'"),
        ({"cosmic_ray": "collective"}, "must name other taxonomy labels, got 'cosmic_ray'"),
    ],
)
def test_a_conditional_neighbour_must_name_another_label_and_known_evidence(
    tmp_path: Path, also_if: dict, message: str
) -> None:
    path = tmp_path / "signatures.yaml"
    data = {
        "neighbour_evidence": {"collective": {"labels": ["hccl"]}},
        "signatures": [{**GOOD, "also_if": also_if}],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(KnowledgeError, match=re.escape(message)):
        load_signatures(path)


def test_a_signature_names_the_shells_words_for_a_signal_once(tmp_path: Path) -> None:
    (tmp_path / "signal_names.yaml").write_text(
        "segfault: [段错误, Speicherzugriffsfehler]\n", encoding="utf-8"
    )
    rule = {**GOOD, "keywords": ["{{segfault}}"], "regex": r"^\s*{{segfault}}\s*$"}
    (signature,) = load_signatures(write_signatures(tmp_path, rule))
    assert signature.keywords == ("段错误", "Speicherzugriffsfehler")
    assert signature.search("Speicherzugriffsfehler")
    assert not signature.search("段错误是越界写导致的")


def test_a_signature_naming_a_list_nobody_wrote_is_rejected(tmp_path: Path) -> None:
    path = write_signatures(tmp_path, {**GOOD, "regex": "{{segfault}}"})
    with pytest.raises(KnowledgeError, match=r"signature 'demo\.oom': names '\{\{segfault\}\}'"):
        load_signatures(path)
