"""How many columns a log line took on the screen it was copied from.

A terminal cuts a long line at a column, and columns are not bytes: in UTF-8 a Chinese
character is 3 bytes but 2 columns (East Asian wide and fullwidth characters), a combining
accent 2 bytes but no column of its own, a block of a progress bar 3 bytes and 1 column:

    [INFO] 训练步 10/2000 完成，损失 2.3104                   47 bytes, 39 columns
    Loading checkpoint shards:  42%|████▋        | 16/38      62 bytes, 52 columns

Used by `formats.wrapped` to tell the pieces of a cut line by the window's width.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_OTHER = re.compile(r"[^\x00-\u02ff]")  # what may take other than one column


def columns(line: bytes) -> int:
    """Display columns of a line: a byte each for ASCII (most logs, counted in C), else its
    characters' widths. A line that is not UTF-8 keeps its byte count: in the legacy double-byte
    encodings (GBK, Big5, Shift JIS) a wide character is two bytes, as it is two columns."""
    if line.isascii():
        return len(line)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return len(line)
    other = _OTHER.findall(text)  # found in C: most of a mixed line is ASCII
    return len(text) - len(other) + sum(map(_char_columns, other))


def opens_wide(line: bytes) -> bool:
    """The line starts with a wide character (none lies below U+1100, whose lead byte is E1):
    a terminal puts one that does not fit in a row's last column on the next row, so the row
    before ends a column short of the window."""
    return line[:1] >= b"\xe1" and _char_columns(line[:4].decode("utf-8", "ignore")[:1] or "?") == 2


@lru_cache(maxsize=4096)
def _char_columns(char: str) -> int:
    """Columns one character takes: 2 for East Asian wide and fullwidth ones (Chinese, kana,
    Hangul, fullwidth punctuation), 0 for combining marks and invisible format characters,
    which sit on the cell before them, else 1 (ambiguous-width box and block characters as
    progress bars draw them included: terminals outside a CJK locale give them one). Cached:
    a Chinese log repeats a few thousand characters."""
    if char < "\u0300":
        return 1
    if unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
