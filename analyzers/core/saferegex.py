"""Regexes that people type in (checkpoint patterns, case signatures), run in linear time.

Python's `re` backtracks: `^(a+)+$` on a line of 34 `a`s and one `b` runs for hours, and
any logged-in user may submit such a pattern. RE2 (the `google-re2` package) runs every
pattern in time linear in the text, at the price of refusing the few constructs that need
backtracking (backreferences such as `\\1`, lookahead and lookbehind). Those are refused
when the pattern is submitted, with a message that says so::

    >>> compile_user_regex(r"layer (?P<layer>\\d+) passed").search("layer 3 passed")["layer"]
    '3'
    >>> compile_user_regex(r"(a)\\1")
    Traceback (most recent call last):
    UnsafeRegex: ... backreferences and lookaround are not supported ...

The returned object offers what callers use of `re.Pattern`: `search`, `fullmatch`,
`finditer` and `groupindex`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import re2

MAX_PATTERN_CHARS = 2000  # a checkpoint marker or an error signature is one line of text
MAX_PROGRAM_BYTES = 8 * 1024 * 1024  # RE2's own default; `x{1000}{1000}` is refused
_UNSUPPORTED_HINT = (
    "only linear-time regexes are accepted: backreferences (\\1) and lookaround "
    "((?=...), (?!...), (?<=...), (?<!...)) are not supported"
)


class UnsafeRegex(ValueError):
    """The pattern is not a regex, or not one that runs in linear time."""


def compile_user_regex(pattern: str, *, ignore_case: bool = False) -> Any:
    """Compile a user-supplied regex for RE2; UnsafeRegex (a ValueError) says why not."""
    if not isinstance(pattern, str):
        raise UnsafeRegex(f"{pattern!r} is not a text pattern")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsafeRegex(f"the pattern is longer than {MAX_PATTERN_CHARS} characters")
    options = re2.Options()
    options.log_errors = False  # RE2 would print each refusal on stderr
    options.max_mem = MAX_PROGRAM_BYTES
    options.case_sensitive = not ignore_case
    try:
        return re2.compile(unicode_classes(pattern), options)
    except re2.error as error:
        raise UnsafeRegex(f"{pattern!r} {_reason(error)}") from None


# Python's \w, \d and \s match any script (`解码` is two word characters); RE2's match ASCII
# only. Written out as Unicode classes, a pattern means in RE2 what it meant in Python.
_OUTSIDE = {"w": r"[\p{L}\p{N}_]", "W": r"[^\p{L}\p{N}_]", "d": r"\p{Nd}", "D": r"\P{Nd}"}
_OUTSIDE["s"] = r"[\s\p{Z}\x0b]"
_OUTSIDE["Z"] = r"\z"  # end of text: Python spells it \Z, RE2 \z
_INSIDE = {"w": r"\p{L}\p{N}_", "d": r"\p{Nd}", "s": r"\s\p{Z}\x0b"}


def unicode_classes(pattern: str) -> str:
    """`pattern` with \\w, \\d, \\s (and \\W, \\D outside classes) as Unicode classes."""
    out, in_class, position = [], False, 0
    while position < len(pattern):
        char = pattern[position]
        if char == "\\" and position + 1 < len(pattern):
            escaped = pattern[position + 1]
            table = _INSIDE if in_class else _OUTSIDE
            out.append(table.get(escaped, char + escaped))
            position += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            if pattern[position + 1 : position + 2] == "^":  # `[^]...]`: keep `]` literal
                out.append("^")
                position += 1
            if pattern[position + 1 : position + 2] == "]":
                out.append("]")
                position += 1
        elif char == "]" and in_class:
            in_class = False
            out.append(char)
        else:
            out.append(char)
        position += 1
    return "".join(out)


def _reason(error: Exception) -> str:
    detail = error.args[0] if error.args else ""
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    lowered = str(detail).lower()
    if "escape" in lowered or "perl operator" in lowered:
        return f"is refused ({detail}): {_UNSUPPORTED_HINT}"
    return f"is not a valid regex: {detail}"


def compile_line_filter(source: bytes) -> Any:
    """A bytes pattern that finds candidate lines in raw log blocks (`^`/`$` at line ends).

    Built from user patterns, so it runs on RE2 as well; bytes are matched one by one
    (Latin-1), as Python's `re` matches a bytes pattern. A source RE2 refuses lets every
    line through: slower, never wrong, never stuck."""
    options = re2.Options()
    options.log_errors = False
    options.max_mem = MAX_PROGRAM_BYTES
    options.encoding = re2.Options.Encoding.LATIN1
    try:
        return re2.compile(b"(?m)" + source, options)
    except re2.error:
        return re2.compile(b"(?m)(?s:.)", options)


def compile_literal_union(words: Sequence[bytes]) -> Any:
    """One RE2 pattern that finds any of `words` (byte literals, matched as written), or None
    when there are none or RE2 refuses the union. RE2 runs a union of a hundred words as one
    automaton, in one pass over the text, where a `bytes.find` per word makes a hundred."""
    if not words:
        return None
    options = re2.Options()
    options.log_errors = False
    options.max_mem = MAX_PROGRAM_BYTES
    options.encoding = re2.Options.Encoding.LATIN1
    source = b"|".join(_escaped(word) for word in words)
    try:
        return re2.compile(source, options)
    except re2.error:
        return None


def _escaped(word: bytes) -> bytes:
    """`word` as an RE2 literal: letters and digits as they are, every other byte as \\xHH."""
    return b"".join(
        bytes([byte]) if chr(byte).isascii() and chr(byte).isalnum() else b"\\x%02x" % byte
        for byte in word
    )
