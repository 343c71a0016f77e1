"""Compiled regex programs kept between runs, so a process compiles no pattern that an
earlier one compiled.

Python's `re` parses and compiles a pattern in Python code. The patterns every run compiles
(the line formats' and the scanner's at import, the checkpoint rules, the prefilter, the line
headers, the signatures a bundle's errors reach) cost a third of the fixed start of `python -m
analyzers`, more CPU than reading a small checkpoint-heavy bundle. What the compiler makes of
a pattern (the arguments it hands to `_sre.compile`: the final flags, the program's code
words and the group names) depends on the pattern, its flags and the Python build alone, so
it is kept in the private cache directory (`core/cache_dir.py`), one marshal file per Python
build (marshal data runs no code when read). `_sre.compile` checks a program before it makes
the pattern, and the pattern equals the one `re.compile` makes (`==` compares the programs);
anything unexpected (a damaged file, another Python's internals) falls back to `re.compile`.

Only the analyzer's own patterns go through `compile`; `re` itself is left as it is, so other
code in the process (the web app, libraries) compiles as before. The programs a process
compiled afresh are written when it exits, with those it read at its start, up to
`MAX_PROGRAMS` (past it the file keeps what the last process used), so the file holds what
the runs on this machine use.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import marshal
import os
import re
import sys
import tempfile
from array import array
from functools import cache
from pathlib import Path
from typing import AnyStr

from analyzers.core.cache_dir import cache_dir

try:  # the compiler's own parts: present in the CPython versions the analyzer supports
    import _sre
    from re import _compiler, _parser  # type: ignore[attr-defined]
except ImportError:  # another implementation: plain `re.compile`
    _sre = None  # type: ignore[assignment]
if _sre is not None and array("I").itemsize != getattr(_sre, "CODESIZE", 0):
    _sre = None  # type: ignore[assignment]  # code words of another width: plain `re.compile`

MAX_PROGRAMS = 8192
Program = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
_CODE = "I"  # the engine's code words are unsigned 32-bit ints (`_sre.CODESIZE`)
_fresh: dict[tuple[str | bytes, int], Program] = {}  # compiled by this process, not yet kept
_used: set[tuple[str | bytes, int]] = set()


def compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, from a kept program when there is one."""
    if _sre is None:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    _used.add(key)
    program = _kept().get(key)
    if program is None:
        try:
            program = _program(pattern, flags)
        except re.error:
            raise
        except Exception:  # another Python's internals: its own compiler
            return re.compile(pattern, flags)
        _keep(key, program)
    try:
        return _built(pattern, program)
    except Exception:  # a program this Python cannot run
        return re.compile(pattern, flags)


def _built(pattern: AnyStr, program: Program) -> re.Pattern[AnyStr]:
    final_flags, code, groups, groupindex, indexgroup = program
    code_list = array(_CODE, code).tolist()
    return _sre.compile(pattern, final_flags, code_list, groups, groupindex, indexgroup)


def _keep(key: tuple[str | bytes, int], program: Program) -> None:
    """Keep a program compiled by this process, for the next ones (written at exit)."""
    if not _fresh:
        atexit.register(_store)
    _fresh[key] = program


def _program(pattern: str | bytes, flags: int) -> Program:
    """What `re._compiler.compile` passes to `_sre.compile` after the pattern, its code
    packed as bytes (read back in one call; a list of ints is read int by int). A bad
    pattern raises the `re.error` that `re.compile` raises: it is the same parser."""
    parsed = _parser.parse(pattern, flags)
    code = array(_CODE, _compiler._code(parsed, flags)).tobytes()
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    final_flags = int(flags | parsed.state.flags)
    return final_flags, code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


@cache
def _kept() -> dict[tuple[str | bytes, int], Program]:
    path = _path()
    if path is None:
        return {}
    try:
        kept = marshal.loads(path.read_bytes())
    except Exception:  # missing, damaged or another marshal format: compile afresh
        return {}
    return kept if isinstance(kept, dict) else {}


def _path() -> Path | None:
    directory = cache_dir()
    if directory is None:
        return None
    build = f"{sys.version}\0{sys.implementation.cache_tag}\0{getattr(_sre, 'MAGIC', '')}"
    return directory / f"regex-programs-{hashlib.sha256(build.encode()).hexdigest()[:16]}.marshal"


def _store() -> None:
    """Write the kept programs with this run's fresh ones, atomically."""
    path = _path()
    if path is None or not _fresh:
        return
    programs = {**_kept(), **_fresh}
    if len(programs) > MAX_PROGRAMS:
        programs = {key: program for key, program in programs.items() if key in _used}
    _fresh.clear()
    data = marshal.dumps(programs)
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as out:
            out.write(data)
    except OSError:  # no room: nothing kept
        return
    try:
        os.replace(out.name, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(out.name)


def cached_count() -> int:
    """How many kept programs this process read at its start."""
    return len(_kept())
