"""Turn raw log bytes into blocks of whole lines and into clean, bounded text.

Logs from real jobs carry Latin-1 or broken UTF-8, NUL padding from crashed writers, CR
progress bars, ANSI colours and lines of megabytes (a JSON-escaped error body on one line).
None of that may crash a parser or blow up memory, so:

- `iter_blocks` reads a stream in ~1 MiB blocks that always end at a line end; a line longer
  than `LONG_LINE_BYTES` is cut there, the rest of it is skipped and `CUT_MARKER` appended;
- `clean_line` decodes with replacement, drops NUL/CR/ANSI escapes, turns a web page's HTML
  entities, line breaks (`<br>` at a line's end) and non-breaking spaces back into the text they
  stand for, and cuts the text to `MAX_LINE_CHARS` with a marker.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import BinaryIO

BLOCK_SIZE = 1024 * 1024
LONG_LINE_BYTES = 1024 * 1024  # a physical line longer than this is cut while reading
MAX_LINE_CHARS = 8192  # text kept per line in events
CUT_MARKER = " [...cut]"
_CUT_MARKER_BYTES = CUT_MARKER.encode()

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# Colour codes whose escape byte was lost when a terminal log was copied into an issue or a
# ticket ("[0;36m(EngineCore_DP0 pid=224)[0;0m ERROR ..."). They are only removed from a line
# that also carries a reset code, so a bracketed "[5m" in ordinary text stays.
_ORPHAN_SGR = re.compile(r"\[(?:\d{1,3};)*\d{1,3}m")
_ORPHAN_RESETS = ("[0m", "[0;0m", "[00m")
# Python refuses to turn more than 4300 digits into an int (a denial-of-service guard), and
# the parsers read ranks, pids and sizes with int(): a longer run of digits is cut to its
# first digits and a marker. Only a line longer than that can hold one, so this costs nothing
# on ordinary lines.
MAX_DIGITS = 4300  # sys.get_int_max_str_digits() default
KEPT_DIGITS = 20
_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
# A log copied out of a web page's source, or exported by a viewer that writes HTML, arrives
# with its quotes and angle brackets as entities (`File &quot;train.py&quot;, line 3, in
# &lt;module&gt;`): the markup's escaping, not the program's text.
_HTML_ENTITY = re.compile(r"&(?:quot|apos|lt|gt|amp|nbsp|#x?[0-9a-fA-F]{1,6});")
# The same source ends each line with the page's line break; one the program wrote itself
# reached the source escaped (`&lt;br&gt;`), so the break is looked for before the entities.
_HTML_BREAK = re.compile(r"<br\s*/?>$", re.I)


def _cut_digits(found: re.Match[str]) -> str:
    return found.group()[:KEPT_DIGITS] + CUT_MARKER


def iter_blocks(stream: BinaryIO, block_size: int = BLOCK_SIZE) -> Iterator[bytes]:
    """Yield blocks of complete lines, each ending with b"\\n" (one is added at EOF).

    Memory stays bounded by about two blocks whatever the line lengths.
    """
    carry = b""
    skipping = False  # inside the tail of an over-long line that was already cut
    while chunk := stream.read(block_size):
        if skipping:
            end = chunk.find(b"\n")
            if end < 0:
                continue
            skipping = False
            chunk = chunk[end + 1 :]
        data = carry + chunk if carry else chunk
        cut = data.rfind(b"\n")
        if cut >= 0:
            carry = data[cut + 1 :]
            yield data[: cut + 1]
        else:
            carry = data
        if len(carry) > LONG_LINE_BYTES:
            yield carry[:LONG_LINE_BYTES] + _CUT_MARKER_BYTES + b"\n"
            carry, skipping = b"", True
    if carry:
        yield carry + b"\n"


def clean_line(raw: bytes) -> str:
    """Decode one physical line (without its newline) into display-safe text."""
    cut = len(raw) > MAX_LINE_CHARS * 4
    if cut:
        raw = raw[: MAX_LINE_CHARS * 4]
    text = raw.decode("utf-8", "replace")
    return clean_text(text, cut)


def clean_text(text: str, cut: bool = False) -> str:
    if text[:1] == "\ufeff":  # a byte-order mark some editors write at a file's start
        text = text[1:]
    if len(text) > MAX_DIGITS and _LONG_DIGITS.search(text):
        text = _LONG_DIGITS.sub(_cut_digits, text)
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if any(reset in text for reset in _ORPHAN_RESETS):
        text = _ORPHAN_SGR.sub("", text)
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\r" in text:
        text = text.rstrip("\r").replace("\r", " ")
    if text[-1:] == ">" and (found := _HTML_BREAK.search(text)):
        text = text[: found.start()]
    if "&" in text and _HTML_ENTITY.search(text):
        text = html.unescape(text)
    if "\xa0" in text:  # a page's non-breaking spaces, kept by a copy from the browser
        text = text.replace("\xa0", " ")
    if len(text) > MAX_LINE_CHARS:
        text, cut = text[:MAX_LINE_CHARS], True
    if cut and not text.endswith(CUT_MARKER):
        text += CUT_MARKER
    return text
