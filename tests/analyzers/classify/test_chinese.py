"""Signature titles and code meanings get their Chinese from files of their own
(knowledge/zh/), keyed by signature id and by code; a key that names nothing is refused at
load time, and an entry without Chinese is listed for the translations test."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzers.classify.chinese import with_meanings, with_titles
from analyzers.classify.errorcodes import load_codes
from analyzers.classify.rules import KNOWLEDGE_DIR, load_knowledge
from analyzers.classify.signature_file import load_signatures
from analyzers.core.yamlcheck import KnowledgeError
from analyzers.report import translations


@pytest.fixture(scope="module")
def signatures():
    return load_signatures(KNOWLEDGE_DIR / "signatures.yaml")


@pytest.fixture(scope="module")
def codes():
    return load_codes(KNOWLEDGE_DIR / "error_codes.yaml")


def write(directory: Path, name: str, data: dict) -> Path:
    directory.mkdir(exist_ok=True)
    (directory / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return directory


def test_shipped_titles_and_meanings_are_read_beside_the_english():
    knowledge = load_knowledge()
    oom = next(s for s in knowledge.signatures if s.id == "oom.device_out_of_memory")
    aicore = knowledge.codes.lookup("507015")

    assert (oom.title, oom.title_zh) == ("Device out of memory", "设备内存不足（OOM）")
    assert aicore is not None
    assert aicore.meaning_zh == "AI Core kernel 运行时发生异常（aicore exception）。"


def test_a_code_known_only_by_its_family_takes_the_family_chinese():
    unlisted = load_knowledge().codes.lookup("EZ7777")

    assert unlisted is not None
    assert unlisted.inferred
    assert unlisted.meaning_zh == "算子 / aclnn 层错误。"


def test_a_title_for_a_signature_that_does_not_exist_is_refused(tmp_path: Path, signatures):
    directory = write(tmp_path / "zh", "signature_titles.yaml", {"oom.renamed_away": "内存不足"})

    with pytest.raises(KnowledgeError, match=r"no signature has the id\(s\) oom\.renamed_away"):
        with_titles(signatures, directory)


def test_a_meaning_for_a_code_the_table_does_not_list_is_refused(tmp_path: Path, codes):
    directory = write(tmp_path / "zh", "code_meanings.yaml", {"acl": {"999999": "不存在的码"}})

    with pytest.raises(KnowledgeError, match=r"acl: error_codes\.yaml has no code 999999"):
        with_meanings(codes, directory)


def test_a_table_error_codes_yaml_does_not_have_is_refused(tmp_path: Path, codes):
    directory = write(tmp_path / "zh", "code_meanings.yaml", {"nccl": {"1": "参数错误"}})

    with pytest.raises(KnowledgeError, match="unknown table"):
        with_meanings(codes, directory)


def test_an_english_text_in_the_chinese_file_is_refused(tmp_path: Path, signatures):
    directory = write(tmp_path / "zh", "signature_titles.yaml", {"dev.killed": "Process killed"})

    with pytest.raises(KnowledgeError, match=r"'dev\.killed' must be a string written in Chinese"):
        with_titles(signatures, directory)


def test_without_the_chinese_files_the_english_knowledge_loads_alone(tmp_path: Path, signatures):
    assert with_titles(signatures, tmp_path) == signatures


def test_a_signature_and_a_code_without_chinese_are_listed(tmp_path: Path, monkeypatch):
    directory = write(tmp_path / "zh", "signature_titles.yaml", {"dev.killed": "进程被杀死"})
    write(directory, "code_meanings.yaml", {"hccl": {"9": "集合通信超时。"}})
    knowledge = load_knowledge()
    partial = type(knowledge)(
        signatures=with_titles(load_signatures(KNOWLEDGE_DIR / "signatures.yaml"), directory),
        codes=with_meanings(load_codes(KNOWLEDGE_DIR / "error_codes.yaml"), directory),
        actions=knowledge.actions,
        index=knowledge.index,
    )
    monkeypatch.setattr(translations, "load_knowledge", lambda: partial)

    missing = translations.missing_translations()

    assert "zh/signature_titles.yaml: dev.segfault (signatures.yaml: " in "\n".join(missing)
    assert not [m for m in missing if ": dev.killed " in m]
    assert any(m.startswith("zh/code_meanings.yaml: acl: 507015 ") for m in missing)
    assert not [m for m in missing if m.startswith("zh/code_meanings.yaml: hccl: 9 ")]
