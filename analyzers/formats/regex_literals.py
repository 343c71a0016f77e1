"""The literals every match of a regex starts with, read from its parsed form.

    (?i:passed|succe(?:ss|eded))  ->  [b"passed", b"succe"]

Python's `re` is only fast when a pattern starts with a literal, and `bytes.find` faster
still, so the block filter (`formats.blockfilter`) looks for a checkpoint pattern's leading
literals instead of running it over a whole block. The literals are read with the parser
behind `re`; a pattern it cannot read, or one with a branch that starts with fewer than
`MIN_LITERAL` literal bytes, gives None and is searched as a regex.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

try:  # the parser behind `re`; only used to read literals, with a safe fallback
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older/newer Pythons
    sre_parse = None

MIN_LITERAL = 3
_ENOUGH = 5


@lru_cache(maxsize=64)  # every file's filter asks again for the same checkpoint pattern
def literal_prefixes(source: bytes) -> list[bytes] | None:
    """Literals that every match of `source` starts with, one per branch, or None.

    `(?i:passed|succe(?:ss|eded))` -> [b"passed", b"succe"]. None when some branch does not
    start with at least `MIN_LITERAL` literal bytes (then a literal search would not help).
    """
    if sre_parse is None:
        return None
    try:
        parsed = sre_parse.parse(source)
    except Exception:  # any parser trouble means "no literals"
        return None
    found = _prefixes(list(parsed))
    if not found or any(len(word) < MIN_LITERAL for word in found):
        return None
    return found


def _prefixes(items: list[Any]) -> list[bytes] | None:
    head = bytearray()
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            head.append(value)
            continue
        if len(head) >= _ENOUGH:  # `succe(?:ss|eded)` -> b"succe": fewer words to look for
            return [bytes(head)]
        if name == "SUBPATTERN":
            inner = _prefixes(list(value[-1]))
        elif name == "BRANCH":
            inner = _branches(value[1])
        else:
            inner = None
        if inner is None:
            return [bytes(head)] if head else None
        return [bytes(head) + word for word in inner]
    return [bytes(head)] if head else None


def _branches(branches: Iterable[Any]) -> list[bytes] | None:
    words: list[bytes] = []
    for branch in branches:
        found = _prefixes(list(branch))
        if not found:
            return None
        words.extend(found)
    return words
