"""Make member names and report texts safe to store, link and show.

A tar member name is decoded with `surrogateescape`, so a byte that is not UTF-8 becomes a
lone surrogate: valid in a Python `str`, invalid in UTF-8 and refused by PostgreSQL's
`jsonb`, as is a NUL. A newline in a name breaks URLs and one-line listings. Such characters
are replaced by a visible escape of the byte they stand for, written `\\xNN`:

    >>> clean_name("rank\\udcff\\n0.log")
    'rank\\\\xff\\\\x0a0.log'

Names lose every control character (tab and newline included); texts keep tab and newline
(they are multi-line sentences) and lose the rest. Anything else passes unchanged, and the
common case (nothing to replace) costs one `str.isprintable` call.
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs

_NAME_UNSAFE = regex_programs.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_TEXT_UNSAFE = regex_programs.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def clean_name(name: str) -> str:
    """A member name with control characters and undecodable bytes escaped as `\\xNN`."""
    if name.isprintable():
        return name
    return _NAME_UNSAFE.sub(_escape, name)


def clean_text(text: str) -> str:
    """Report text: like `clean_name`, but tab and newline are kept."""
    if text.isprintable():
        return text
    return _TEXT_UNSAFE.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte itself
        return f"\\x{code - 0xDC00:02x}"
    if code > 0xFF:  # any other lone surrogate (from a JSON `\\ud800` escape, say)
        return f"\\u{code:04x}"
    return f"\\x{code:02x}"
