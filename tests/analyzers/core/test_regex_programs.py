"""Regex programs kept between runs: a pattern compiled by an earlier run is rebuilt from its
kept program, equal to what `re.compile` makes, the file holds what the last run used, and a
missing or damaged file only means compiling afresh."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from analyzers.core import regex_programs

RANK_LINE = r"\[rank(?P<rank>\d+)\] (?P<level>INFO|ERROR) "


@pytest.fixture(autouse=True)
def first_run(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts as a new process would: nothing read or compiled yet."""
    monkeypatch.setattr(regex_programs, "_used", {})
    monkeypatch.setattr(regex_programs, "_ran", [True])  # an analysis runs in this process
    regex_programs._kept.cache_clear()
    yield
    regex_programs._kept.cache_clear()


def next_run() -> None:
    """End this run as the process's exit does, and start another."""
    regex_programs._store()
    regex_programs._used.clear()
    regex_programs._kept.cache_clear()


def refuse_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    def compile_again(*args: object) -> None:
        raise AssertionError(f"compiled again: {args}")

    monkeypatch.setattr(re, "compile", compile_again)


def test_a_pattern_an_earlier_run_compiled_is_rebuilt_from_its_kept_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    regex_programs.compile(RANK_LINE, re.IGNORECASE)
    next_run()
    refuse_to_compile(monkeypatch)
    pattern = regex_programs.compile(RANK_LINE, re.IGNORECASE)
    assert pattern.search("[default0]:[rank3] error lost peer")["rank"] == "3"


@pytest.mark.parametrize(
    ("source", "flags"),
    [
        (RANK_LINE, 0),
        (RANK_LINE, re.IGNORECASE),
        (rb"(?m)^\[rank(\d+)\]", 0),
        (r"(?x) layer \s+ (?P<layer>\d+) \s+ passed", 0),
        (r"(?P<a>x)(?(a)y|z)", 0),
    ],
)
def test_the_rebuilt_pattern_is_the_one_re_compiles(source: str | bytes, flags: int) -> None:
    regex_programs.compile(source, flags)
    next_run()
    rebuilt = regex_programs.compile(source, flags)
    assert rebuilt == re.compile(source, flags)
    assert rebuilt.groupindex == re.compile(source, flags).groupindex
    assert regex_programs.cached_count() == 1


def test_a_damaged_file_means_compiling_afresh(cache_dir: Path) -> None:
    regex_programs.compile(RANK_LINE)
    next_run()
    (kept,) = cache_dir.glob("regex-programs-*.marshal")
    kept.write_bytes(b"\x00not marshal data")
    assert regex_programs.compile(RANK_LINE) == re.compile(RANK_LINE)


def test_without_a_cache_directory_patterns_still_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RANKLENS_CACHE_DIR", "")
    regex_programs.compile(RANK_LINE)
    next_run()
    assert regex_programs.compile(RANK_LINE) == re.compile(RANK_LINE)
    assert regex_programs.cached_count() == 0


def test_a_bad_pattern_fails_as_re_compile_fails() -> None:
    with pytest.raises(re.error, match="missing \\)"):
        regex_programs.compile(r"rank(\d+")


def kept_file(cache_dir: Path) -> Path:
    (kept,) = cache_dir.glob("regex-programs-*.marshal")
    return kept


def test_the_file_keeps_only_what_the_last_run_used(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for source in ("norm passed", "attention passed"):
        regex_programs.compile(source)
    next_run()
    regex_programs.compile("attention passed")  # the knowledge no longer says `norm passed`
    regex_programs.compile("MoE passed")
    next_run()
    assert regex_programs.cached_count() == 2
    refuse_to_compile(monkeypatch)
    assert regex_programs.compile("MoE passed").search("[rank0] MoE passed")
    assert regex_programs.compile("attention passed").search("[rank1] attention passed")


def test_a_run_that_used_what_it_read_leaves_the_file_unwritten(cache_dir: Path) -> None:
    regex_programs.compile(RANK_LINE)
    next_run()
    written = kept_file(cache_dir).stat()
    regex_programs.compile(RANK_LINE)
    next_run()
    again = kept_file(cache_dir).stat()
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)


def test_a_process_that_analyzed_nothing_leaves_the_file_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    regex_programs.compile(RANK_LINE)
    regex_programs.compile("MoE passed")
    next_run()
    monkeypatch.setattr(regex_programs, "_ran", [])  # the web app, importing a few modules
    regex_programs.compile(RANK_LINE)
    next_run()
    assert regex_programs.cached_count() == 2
