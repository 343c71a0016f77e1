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
code in the process (the web app, libraries) compiles as before. A process that analyzed a
bundle (`analysis_ran`) writes, when it exits, the programs it used and no others, and only
when that set differs from the one it read: the file is read whole at every start, so a
pattern that edited knowledge no longer holds is dropped by the next run instead of being
carried along. A process that only imported the analyzer (the web app) leaves the file alone:
the few patterns it compiles are not what a run uses.
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

Program = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]
_CODE = "I"  # the engine's code words are unsigned 32-bit ints (`_sre.CODESIZE`)
_used: dict[tuple[str | bytes, int], Program] = {}  # the programs this process used
_ran: list[bool] = []  # holds True once this process analyzed a bundle


def compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, from a kept program when there is one."""
    if _sre is None:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    program = _kept().get(key)
    if program is None:
        try:
            program = _program(pattern, flags)
        except re.error:
            raise
        except Exception:  # another Python's internals: its own compiler
            return re.compile(pattern, flags)
    try:
        built = _built(pattern, program)
    except Exception:  # a program this Python cannot run: not kept either
        return re.compile(pattern, flags)
    _used[key] = program
    return built


def _built(pattern: AnyStr, program: Program) -> re.Pattern[AnyStr]:
    final_flags, code, groups, groupindex, indexgroup = program
    code_list = array(_CODE, code).tolist()
    return _sre.compile(pattern, final_flags, code_list, groups, groupindex, indexgroup)


def analysis_ran() -> None:
    """Mark this process as one that analyzed a bundle: at its exit the kept programs become
    the ones it used (`_store`)."""
    if not _ran:
        _ran.append(True)
        atexit.register(_store)


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
    """Write the programs this run used, atomically, when they are not the set it read."""
    path = _path() if _ran else None
    if path is None or _used.keys() == _kept().keys():
        return
    data = marshal.dumps(_used)
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
