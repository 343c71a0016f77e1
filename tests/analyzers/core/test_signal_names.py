"""The shell's words for a signal's death, one list each that rules name as `{{name}}`
(`core.signal_names`, `knowledge/signal_names.yaml`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.core.signal_names import expand, keywords, load_signal_names
from analyzers.core.yamlcheck import KnowledgeError

NAMES = {
    "segfault": ("段错误", "Erreur de segmentation"),
    "script_line": ("第 %d 行：",),
}


def test_a_named_list_becomes_an_alternation_of_its_words_read_literally() -> None:
    pattern = re.compile(expand(r"^{{segfault}}$", NAMES, "demo"))
    assert pattern.search("段错误")
    assert pattern.search("Erreur  de segmentation")  # a space stands for any run of blanks
    assert not pattern.search("段错误是越界写导致的")


def test_a_number_in_a_word_stands_for_any_number() -> None:
    pattern = re.compile(expand(r"{{script_line}}\s*\d+ ", NAMES, "demo"))
    assert pattern.search("start.sh: 第 19 行：40213 已杀死")
    assert not pattern.search("start.sh: 第十九行：40213 已杀死")


def test_a_keyword_entry_naming_a_list_stands_for_its_words() -> None:
    listed = keywords(("Segmentation fault", "{{segfault}}"), NAMES, "demo")
    assert listed == ("Segmentation fault", "段错误", "Erreur de segmentation")


def test_a_list_the_file_lacks_fails_with_its_place() -> None:
    with pytest.raises(KnowledgeError, match=r"demo: names '\{\{bus_error\}\}'"):
        expand("{{bus_error}}", NAMES, "demo")


def test_a_list_of_no_words_is_refused(tmp_path: Path) -> None:
    (tmp_path / "signal_names.yaml").write_text("segfault: []\n", encoding="utf-8")
    with pytest.raises(KnowledgeError, match="'segfault' must list non-empty strings"):
        load_signal_names(tmp_path)


def test_the_shipped_lists_hold_the_c_librarys_chinese_words() -> None:
    names = load_signal_names(KNOWLEDGE_DIR)
    assert "段错误" in names["segfault"]
    assert "已放弃" in names["abort"]
    assert "（核心已转储）" in names["core_dumped"]
    assert {"killed", "segfault", "abort", "bus_error", "illegal_instruction", "fpe"} <= set(names)
