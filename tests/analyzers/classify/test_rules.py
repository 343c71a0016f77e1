"""The knowledge files load, every signature matches its examples and none of its
counterexamples, and a malformed file fails with a message that says where."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from analyzers.classify.accelerator import STACKS
from analyzers.classify.errorcodes import guess_table, load_codes, normalise_code
from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import (
    ACTION_STACKS,
    KNOWLEDGE_DIR,
    load_actions,
    load_knowledge,
    load_signatures,
    signatures_disabled,
)
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core.yamlcheck import KnowledgeError
from analyzers.report import multirank, quiet_jobs

KNOWLEDGE = load_knowledge()
EXAMPLES = [
    pytest.param(sig, line, id=f"{sig.id}#{n}")
    for sig in KNOWLEDGE.signatures
    for n, line in enumerate(sig.examples)
]
COUNTEREXAMPLES = [
    pytest.param(sig, line, id=f"{sig.id}#{n}")
    for sig in KNOWLEDGE.signatures
    for n, line in enumerate(sig.counterexamples)
]


@pytest.mark.parametrize(("signature", "line"), EXAMPLES)
def test_signature_matches_its_example(signature, line: str) -> None:
    assert signature.search(line), f"{signature.id} does not match {line!r}"


@pytest.mark.parametrize(("signature", "line"), COUNTEREXAMPLES)
def test_signature_rejects_its_counterexample(signature, line: str) -> None:
    assert not signature.search(line), f"{signature.id} wrongly matches {line!r}"


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


# ---------------------------------------------------------------- validation errors

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


def test_action_section_for_unknown_category_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "actions.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "categories": {"gremlins": [{"id": "pray", "text": "Pray."}]},
                "signatures": {},
                "codes": {},
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(KnowledgeError, match=r"unknown category \['gremlins'\]"):
        load_actions(path)


def write_actions(tmp_path: Path, action: dict) -> Path:
    path = tmp_path / "actions.yaml"
    book = {"categories": {}, "signatures": {"hccl.barrier": [action]}, "codes": {}}
    path.write_text(yaml.safe_dump(book, allow_unicode=True), encoding="utf-8")
    return path


def test_an_action_carries_its_chinese(tmp_path: Path) -> None:
    action = {
        "id": "read_rank",
        "text": "Read rank {ranks}.",
        "text_zh": "阅读 rank {ranks} 的日志。",
    }

    book = load_actions(write_actions(tmp_path, action))

    assert book.signatures["hccl.barrier"][0].text_zh == "阅读 rank {ranks} 的日志。"


def test_an_action_whose_chinese_drops_a_placeholder_is_rejected(tmp_path: Path) -> None:
    action = {"id": "read_rank", "text": "Read rank {ranks}.", "text_zh": "阅读出错 rank 的日志。"}

    with pytest.raises(KnowledgeError, match=r"'hccl.barrier' #1: 'text_zh' must use the same"):
        load_actions(write_actions(tmp_path, action))


def test_an_action_for_a_stack_nobody_detects_is_rejected(tmp_path: Path) -> None:
    action = {
        "id": "rocm_smi",
        "text": "Read rocm-smi.",
        "text_zh": "查看 rocm-smi。",
        "stack": "rocm",
    }

    with pytest.raises(KnowledgeError, match=r"'hccl.barrier' #1: stack must be one of"):
        load_actions(write_actions(tmp_path, action))


def test_the_stacks_advice_can_name_are_the_stacks_the_bundle_reader_detects() -> None:
    assert ACTION_STACKS == STACKS


# Each signature's keywords lowered once: the oracle below runs over every signature for
# each of the six thousand example lines.
LOWERED_KEYWORDS = [(s.id, [k.lower() for k in s.keywords]) for s in KNOWLEDGE.signatures]


def _every_keyword_tested(message: str) -> list[str]:
    """What the index must return: each signature with a keyword in the lowered line."""
    low = message.lower()
    return [sid for sid, keywords in LOWERED_KEYWORDS if any(k in low for k in keywords)]


@pytest.mark.parametrize(
    "message",
    [
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB",
        "[ERROR] HCCL(1234,python):2026-11-29-07:24:22.190.123 [hccl_communicator.cc:88] EI0006",
        "E39999: Inner Error! aicore timeout, AclrtSynchronizeDevice failed 507014",
        '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1518',
        "İSTANBUL rank 3 says ok",  # lower() changes the length of some letters
        "ab",
        "",
    ],
)
def test_signature_index_finds_what_testing_every_keyword_finds(message: str) -> None:
    found = [signature.id for signature in KNOWLEDGE.index.candidates(message)]
    assert found == _every_keyword_tested(message)


def test_signature_index_on_every_example_and_counterexample() -> None:
    lines = [line for sig in KNOWLEDGE.signatures for line in sig.examples + sig.counterexamples]
    for line in lines:
        found = [signature.id for signature in KNOWLEDGE.index.candidates(line)]
        assert found == _every_keyword_tested(line), line


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
