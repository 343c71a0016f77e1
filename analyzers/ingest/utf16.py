"""Logs written in UTF-16 with a byte-order mark, read as the UTF-8 text they hold.

Windows tools write UTF-16 by default (PowerShell's `>` and `Out-File`, some exporters), and
such a log reaches a bundle as every ASCII character followed or preceded by a NUL. Read as
bytes its lines carry no searchable word: no error line would be seen. A file that starts
with a UTF-16 byte-order mark (`FF FE` or `FE FF`, not UTF-32's `FF FE 00 00`) is decoded
and handed on as UTF-8 without its mark, so the scanner and the line store read the text;
any other file passes through untouched, read for read.
"""

from __future__ import annotations

import codecs
from typing import BinaryIO

from analyzers.ingest.streams import ReadOnlyStream, take

BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
DECODE_CHUNK = 1024 * 1024


def starts_utf16(head: bytes) -> bool:
    """True when `head` opens with a UTF-16 byte-order mark (and not UTF-32's)."""
    return head[:2] in BOMS and not head.startswith(codecs.BOM_UTF32_LE)


class Utf16Text(ReadOnlyStream):
    """UTF-8 bytes of a UTF-16 stream that announces itself with its mark, else the raw
    stream's own reads. Undecodable units (a lone surrogate, an odd last byte) become
    U+FFFD, as a broken UTF-8 byte does elsewhere."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._first: bytes | None = None  # what the probe read, handed out first
        self._decoder: codecs.IncrementalDecoder | None = None
        self._ready = b""
        self._eof = False

    def read(self, size: int = -1) -> bytes:
        if self._first is None:
            self._probe(size)
        if self._decoder is None:
            if self._first:
                data, self._first = self._first, b""
                return data
            return self._raw.read(size)
        return self._read_decoded(size)

    def _probe(self, size: int) -> None:
        """Read as the caller asked; a first read of one byte is topped up to four."""
        head = self._raw.read(size)
        while 0 < len(head) < 4 and (more := self._raw.read(4 - len(head))):
            head += more
        if starts_utf16(head):
            self._decoder = codecs.getincrementaldecoder("utf-16")("replace")
            self._ready = self._decode(head)
            self._first = b""
        else:
            self._first = head

    def _decode(self, data: bytes, final: bool = False) -> bytes:
        return self._decoder.decode(data, final).encode("utf-8", "replace")  # type: ignore[union-attr]

    def _read_decoded(self, size: int) -> bytes:
        while not self._ready and not self._eof:
            fresh = self._raw.read(DECODE_CHUNK)
            self._eof = not fresh
            self._ready = self._decode(fresh, final=self._eof)
        data, self._ready = take(self._ready, size)
        return data
