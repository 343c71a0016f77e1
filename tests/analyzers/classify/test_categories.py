"""The taxonomy labels' human names, in English and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.classify.categories import load_categories
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core.yamlcheck import KnowledgeError


def test_every_label_has_a_name_and_description_in_both_languages():
    categories = load_categories()

    assert set(categories) == set(TAXONOMY)
    hccl = categories["hccl"]
    assert hccl.name == "Collective communication failure"
    assert hccl.name_zh == "集合通信失败"
    assert all(c.description and c.description_zh for c in categories.values())


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "categories.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def entries(skip: str = "", **extra: str) -> str:
    lines = ["categories:"]
    for label in TAXONOMY:
        if label == skip:
            continue
        lines += [f"  {label}:", f"    name: {label} name", f"    description: {label} text"]
        lines += [f"    {k}: {v}" for k, v in extra.items() if label == "oom"]
    return "\n".join(lines) + "\n"


def test_a_missing_label_is_refused(tmp_path):
    with pytest.raises(KnowledgeError, match=r"missing \['hang'\], unknown \[\]"):
        load_categories(write(tmp_path, entries(skip="hang")))


def test_a_chinese_name_without_chinese_is_refused(tmp_path):
    path = write(tmp_path, entries(name_zh="Out of memory"))

    with pytest.raises(KnowledgeError, match=r"categories: 'oom': 'name_zh' must be a string"):
        load_categories(path)
