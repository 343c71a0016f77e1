"""Checked knowledge kept between runs: read back while its files are unchanged, read
afresh when one changes, and never taken from a directory someone else could write."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzers.core import knowledge_cache
from analyzers.core.knowledge_cache import LazyPattern, by_content, cached


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text("- id: oom.device\n", encoding="utf-8")
    return path


class Builder:
    """Counts how often the knowledge had to be read from its files."""

    def __init__(self, value: object) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def test_unchanged_knowledge_is_read_back_without_reading_its_files(cache_dir, rules) -> None:
    build = Builder({"ids": ("oom.device",)})
    assert cached("rules", [rules], build) == {"ids": ("oom.device",)}
    assert cached("rules", [rules], build) == {"ids": ("oom.device",)}
    assert build.calls == 1
    assert len(list(cache_dir.glob("rules-*.pickle"))) == 1


def test_an_edited_file_is_read_afresh(cache_dir, rules) -> None:
    cached("rules", [rules], Builder("before"))
    rules.write_text("- id: oom.host\n", encoding="utf-8")
    build = Builder("after")
    assert cached("rules", [rules], build) == "after"
    assert build.calls == 1


def test_only_the_newest_entries_of_a_name_are_kept(cache_dir, rules) -> None:
    for version in range(knowledge_cache.KEPT + 3):
        rules.write_text(f"- id: oom.v{version}\n", encoding="utf-8")
        cached("rules", [rules], Builder(version))
    assert len(list(cache_dir.glob("rules-*.pickle"))) == knowledge_cache.KEPT
    build = Builder("again")
    assert cached("rules", [rules], build) == knowledge_cache.KEPT + 2
    assert build.calls == 0


def test_patterns_come_back_compiled_on_first_use(cache_dir, rules) -> None:
    pattern = re.compile(r"NPU out of memory on device (?P<device>\d+)", re.IGNORECASE)
    cached("rules", [rules], Builder(pattern))
    again = cached("rules", [rules], Builder(None))
    assert isinstance(again, LazyPattern)
    assert again.pattern == pattern.pattern
    assert again.flags == pattern.flags
    assert again.search("RuntimeError: npu OUT OF MEMORY on device 3")["device"] == "3"
    assert "device" in again.groupindex
    assert again.search("layer 3 passed") is None


def test_a_damaged_entry_is_rebuilt(cache_dir, rules) -> None:
    cached("rules", [rules], Builder("first"))
    (entry,) = cache_dir.glob("rules-*.pickle")
    entry.write_bytes(b"not a pickle")
    assert cached("rules", [rules], Builder("rebuilt")) == "rebuilt"


def test_a_missing_source_is_left_to_the_reader_to_report(cache_dir, tmp_path) -> None:
    def read() -> object:
        raise FileNotFoundError("signatures.yaml: cannot read")

    with pytest.raises(FileNotFoundError, match=r"signatures\.yaml"):
        cached("rules", [tmp_path / "signatures.yaml"], read)


def test_a_directory_others_may_write_to_is_not_used(cache_dir, rules) -> None:
    cache_dir.mkdir(mode=0o700)
    cache_dir.chmod(0o777)
    build = Builder("fresh")
    cached("rules", [rules], build)
    cached("rules", [rules], build)
    assert build.calls == 2
    assert not list(cache_dir.glob("*.pickle"))


def test_an_empty_setting_switches_the_cache_off(monkeypatch, rules) -> None:
    monkeypatch.setenv("RANKLENS_CACHE_DIR", "")
    assert knowledge_cache.cache_dir() is None
    build = Builder("fresh")
    cached("rules", [rules], build)
    cached("rules", [rules], build)
    assert build.calls == 2


def test_a_user_without_a_home_directory_reads_the_files(monkeypatch, rules) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("RANKLENS_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert knowledge_cache.cache_dir() is None
    assert cached("rules", [rules], Builder("fresh")) == "fresh"


def test_content_read_before_is_taken_back_by_its_bytes(cache_dir) -> None:
    build = Builder({"keywords": ["HCCL"]})
    content = b"keywords:\n  - HCCL\n"
    assert by_content("yaml.prefilter", content, build) == {"keywords": ["HCCL"]}
    assert by_content("yaml.prefilter", content, build) == {"keywords": ["HCCL"]}
    assert build.calls == 1


def test_other_bytes_are_built_afresh(cache_dir) -> None:
    by_content("yaml.prefilter", b"keywords:\n  - HCCL\n", Builder("before"))
    build = Builder("after")
    assert by_content("yaml.prefilter", b"keywords:\n  - HCCL\n  - EZ9999\n", build) == "after"
    assert build.calls == 1


def test_content_that_fails_to_build_is_not_kept(cache_dir) -> None:
    def broken() -> object:
        raise ValueError("prefilter.yaml: bad keyword")

    with pytest.raises(ValueError, match="bad keyword"):
        by_content("yaml.prefilter", b"keywords: [", broken)
    assert not list(cache_dir.glob("*.pickle"))
