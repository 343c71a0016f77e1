"""Checked knowledge, kept between runs so a command-line analysis does not check it again.

Reading the rule files means parsing about a megabyte of YAML, checking every entry and
compiling hundreds of regexes: a seventh of a second of CPU on every `python -m analyzers`,
spent again by every worker process, while the files change only with a release or an edit.
So the checked objects are pickled once per content: the cache key is a hash of every
knowledge file's bytes and of the analyzer's own code (its files' sizes and times), so an
edited rule, a new release or another Python is read, checked and compiled afresh, and a
broken file still fails at load exactly as before.

A knowledge file's parsed YAML is kept the same way by `by_content`, keyed by its bytes
alone: parsing depends on nothing else, so that key needs no walk over the code.

Regexes are stored as their source and compiled on first use (`LazyPattern`): most of them
are gated by keywords that a given bundle never contains.

The cache sits in `core/cache_dir.cache_dir()`; when it cannot be used or written, the
knowledge is simply read from its files. A pattern that is compiled takes its program from
`core/regex_programs` when an earlier run compiled it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from analyzers.core import regex_programs
from analyzers.core.cache_dir import cache_dir

T = TypeVar("T")
PACKAGE = Path(__file__).resolve().parents[1]
KEPT = 4  # entries kept per name (contents or code versions)
FORMAT = 1  # bump when what is pickled changes shape without a code file changing


class LazyPattern:
    """A regex that compiles on first use; reads like the `re.Pattern` it stands for."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = regex_programs.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, string: str, *args: int) -> re.Match[str] | None:
        return self.compiled().search(string, *args)

    def match(self, string: str, *args: int) -> re.Match[str] | None:
        return self.compiled().match(string, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)

    def __reduce__(self) -> tuple[Any, ...]:
        return LazyPattern, (self.pattern, self.flags)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self.flags})"


def cached(name: str, sources: Iterable[Path], build: Callable[[], T]) -> T:
    """`build()`'s result, from the cache when `sources` and the code are unchanged."""
    directory = cache_dir()
    if directory is None:
        return build()
    try:
        path = directory / f"{name}-{_key(name, sources)}.pickle"
    except OSError:  # a source is missing or unreadable: reading it says which, and why
        return build()
    return _read_or_build(path, name, build)


def by_content(name: str, content: bytes, build: Callable[[], T]) -> T:
    """`build()`'s result, from the cache when it was built from the same `content` before.

    For what depends on a file's bytes alone (a YAML file's parsed data): unlike `cached`,
    the key leaves the analyzer's code out, so it costs no walk over the package."""
    directory = cache_dir()
    if directory is None:
        return build()
    digest = hashlib.sha256(f"{name}\0{FORMAT}\0{sys.version}\0".encode())
    digest.update(content)
    return _read_or_build(directory / f"{name}-{digest.hexdigest()[:32]}.pickle", name, build)


def _read_or_build(path: Path, name: str, build: Callable[[], T]) -> T:
    """The entry at `path`, else `build()` stored there (a failing build stores nothing)."""
    with contextlib.suppress(Exception), path.open("rb") as stream:
        return pickle.load(stream)
    value = build()
    _store(path, name, value)
    return value


def _key(name: str, sources: Iterable[Path]) -> str:
    digest = hashlib.sha256(f"{name}\0{FORMAT}\0{sys.version}\0{_code_stamp()}".encode())
    for source in sorted(sources):
        digest.update(str(source).encode() + b"\0")
        digest.update(source.read_bytes())
    return digest.hexdigest()[:32]


@cache
def _code_stamp() -> str:
    """The analyzer's code as sizes and modification times: a new release or an edited
    module changes it, so objects pickled by other code are never read back."""
    stamps = (
        f"{path.relative_to(PACKAGE)}:{path.stat().st_size}:{path.stat().st_mtime_ns}"
        for path in sorted(PACKAGE.rglob("*.py"))
    )
    return hashlib.sha256("\n".join(stamps).encode()).hexdigest()


def _store(path: Path, name: str, value: Any) -> None:
    """Write atomically, then drop this name's older entries."""
    pickler_table = {re.Pattern: lambda p: (LazyPattern, (p.pattern, p.flags))}
    out = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as out:
            pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dispatch_table = pickler_table  # type: ignore[assignment]
            pickler.dump(value)
        os.replace(out.name, path)
    except Exception:
        if out is not None:
            with contextlib.suppress(OSError):
                os.unlink(out.name)
        return
    _prune(path.parent, name)


def _prune(directory: Path, name: str) -> None:
    """Keep this name's newest entries: two checkouts or releases used by turns each keep
    theirs, while edits over time do not pile up."""
    entries = []
    for entry in directory.glob(f"{name}-*.pickle"):
        with contextlib.suppress(OSError):
            entries.append((entry.stat().st_mtime_ns, entry))
    for _, old in sorted(entries, reverse=True)[KEPT:]:
        with contextlib.suppress(OSError):
            old.unlink()
