"""The advice file is read with its Chinese and its stacks, and a malformed entry fails
with a message that says where."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzers.classify.accelerator import STACKS
from analyzers.classify.action_book import ACTION_STACKS, load_actions
from analyzers.core.yamlcheck import KnowledgeError


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
