"""A user's checkpoint regex, rewritten to search raw log bytes before any decoding.

The scanner finds candidate lines in undecoded 1 MiB blocks, so a user's `str` pattern must
become a `bytes` pattern that matches at least every line the original matches in decoded
text. The rewrite is deliberately loose (one character in text may be a multi-byte UTF-8
sequence in bytes); the full pattern still decides on the decoded message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def bytes_prefilter(source: str) -> bytes:
    """The user pattern as a bytes regex that finds at least every line it matches.

    Anchors and word boundaries are dropped (the pattern applies to the message, not the raw
    line). Whatever matches one character in text (`.`, `\\w`, a class) becomes "one ASCII
    byte of that kind or one multi-byte UTF-8 character", so counts still line up; a
    pattern that cannot be translated lets every line through.
    """
    flags, body = _leading_flags(source)
    try:
        candidate = f"(?{flags}:{''.join(_translate(body))})".encode("ascii")
        re.compile(candidate)
    except (re.error, UnicodeEncodeError, ValueError):
        return b"(?s:.)"
    return candidate


def _leading_flags(source: str) -> tuple[str, str]:
    """Global flags like `(?i)` may only open a pattern; as a part of an alternation they
    must become a scoped group. Unicode/ASCII flags mean nothing for bytes."""
    found = re.match(r"\(\?([aiLmsux]+)\)", source)
    if found is None:
        return "", source
    flags = "".join(flag for flag in found.group(1) if flag in "imsx")
    return flags, source[found.end() :]


_MULTIBYTE = r"[\xc0-\xff][\x80-\xbf]*"
_ANY_CHAR = rf"(?:[^\n\x80-\xff]|{_MULTIBYTE})"
_ESCAPES = {
    "w": rf"(?:\w|{_MULTIBYTE})",
    "d": rf"(?:\d|{_MULTIBYTE})",
    "s": rf"(?:\s|{_MULTIBYTE})",
    "W": rf"(?:[^\w\x80-\xff]|{_MULTIBYTE})",
    "D": rf"(?:[^\d\x80-\xff]|{_MULTIBYTE})",
    "S": rf"(?:[^\s\x80-\xff]|{_MULTIBYTE})",
    "b": "",
    "B": "",
    "A": "",
    "Z": "",
}


def _translate(source: str) -> Iterable[str]:
    position = 0
    while position < len(source):
        char = source[position]
        if char == "\\":
            escaped = source[position + 1 : position + 2]
            yield _escape(escaped)
            position += 2
        elif char == "[":
            end = _class_end(source, position)
            yield _char_class(source[position : end + 1])
            position = end + 1
        else:
            yield _literal(char)
            position += 1


def _escape(char: str) -> str:
    if not char:
        raise ValueError("pattern ends with a backslash")
    if char in _ESCAPES:
        return _ESCAPES[char]
    return "\\" + char if char.isascii() else _utf8_group(char)


def _literal(char: str) -> str:
    if char in "^$":
        return ""
    if char == ".":
        return _ANY_CHAR
    return char if char.isascii() else _utf8_group(char)


def _class_end(source: str, start: int) -> int:
    position = start + 1
    if source[position : position + 1] == "^":
        position += 1
    if source[position : position + 1] == "]":
        position += 1
    while position < len(source) and source[position] != "]":
        position += 2 if source[position] == "\\" else 1
    if position >= len(source):
        raise ValueError("unterminated character class")
    return position


def _char_class(text: str) -> str:
    """A plain ASCII class stays; anything else becomes "any one character"."""
    body = text[1:-1]
    if body.isascii() and "\\" not in body and not body.startswith("^"):
        return text
    if body.isascii() and "\\" not in body:
        return f"(?:[^\\n{body[1:]}\\x80-\\xff]|{_MULTIBYTE})"
    return _ANY_CHAR


def _utf8_group(char: str) -> str:
    return "(?:" + "".join(f"\\x{byte:02x}" for byte in char.encode("utf-8")) + ")"
