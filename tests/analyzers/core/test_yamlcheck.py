"""Knowledge files are parsed once per content: a run that finds their bytes unchanged takes
the parsed data back from the cache, and a run that needs nothing parsed never loads PyYAML."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analyzers.core import yamlcheck
from analyzers.core.yamlcheck import KnowledgeError, parse_yaml_file, read_yaml

ROOT = Path(__file__).resolve().parents[3]
PREFILTER = """\
keywords:
  - HCCL
  - EZ9999
error_words: |
  error|fail
"""


@pytest.fixture
def prefilter(tmp_path: Path) -> Path:
    path = tmp_path / "prefilter.yaml"
    path.write_text(PREFILTER, encoding="utf-8")
    return path


def _no_parsing(text: str) -> object:
    raise AssertionError("parsed again")


def test_an_unchanged_file_is_not_parsed_again(cache_dir, prefilter, monkeypatch) -> None:
    first = parse_yaml_file(prefilter)
    monkeypatch.setattr(yamlcheck, "parse_yaml", _no_parsing)
    assert parse_yaml_file(prefilter) == first
    assert first == {"keywords": ["HCCL", "EZ9999"], "error_words": "error|fail\n"}


def test_an_edited_file_is_parsed_afresh(cache_dir, prefilter) -> None:
    parse_yaml_file(prefilter)
    prefilter.write_text(PREFILTER.replace("EZ9999", "EI9999"), encoding="utf-8")
    assert parse_yaml_file(prefilter)["keywords"] == ["HCCL", "EI9999"]


def test_a_broken_file_fails_each_time_naming_itself(cache_dir, prefilter) -> None:
    prefilter.write_text("keywords: [HCCL\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(KnowledgeError, match=r"prefilter\.yaml: cannot read"):
            read_yaml(prefilter)


def test_a_key_written_twice_in_one_entry_is_refused(cache_dir, tmp_path) -> None:
    """Two edits of one rule merged side by side can leave the rule with two `regex:` keys;
    a YAML parser keeps the last one and drops the other's patterns without a word."""
    signatures = tmp_path / "signatures.yaml"
    signatures.write_text(
        "signatures:\n"
        "  - id: op.shapes_disagree\n"
        "    regex: 'k-axis of the two inputs are different'\n"
        "    regex: 'should be equal to tensor 0'\n",
        encoding="utf-8",
    )
    with pytest.raises(KnowledgeError, match=r"signatures\.yaml: cannot read: .*'regex'.*twice"):
        read_yaml(signatures)


def test_the_same_key_in_different_entries_is_fine(cache_dir, tmp_path) -> None:
    path = tmp_path / "layout.yaml"
    path.write_text("a: {regex: x}\nb: {regex: y}\n", encoding="utf-8")
    assert read_yaml(path) == {"a": {"regex": "x"}, "b": {"regex": "y"}}


def test_a_missing_file_fails_naming_itself(cache_dir, tmp_path) -> None:
    with pytest.raises(KnowledgeError, match=r"phrases\.yaml: cannot read"):
        read_yaml(tmp_path / "phrases.yaml")


def test_a_run_with_its_knowledge_cached_never_loads_the_yaml_parser(tmp_path) -> None:
    log = tmp_path / "rank0.log"
    log.write_text(
        "[rank0]: RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system "
        "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n",
        encoding="utf-8",
    )
    script = (
        "import sys\n"
        "from analyzers import AnalyzeOptions, analyze\n"
        f"analyze({str(log)!r}, AnalyzeOptions(workers=1))\n"
        "print('yaml' in sys.modules)\n"
    )
    env = {**os.environ, "RANKLENS_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        ).stdout.split()[-1]
        for _ in range(2)
    ]
    assert runs == ["True", "False"]  # the first run parses and fills the cache
