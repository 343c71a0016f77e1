"""Logs written in GBK or GB18030, read as the UTF-8 text they hold.

A Chinese Windows collector, or a shell in a `zh_CN.GBK` locale, writes its Chinese in GBK
(GB18030 is its superset): `./run.sh: 第 19 行：40213 段错误 (核心已转储)`. Its ASCII is
ASCII, but read as UTF-8 every Chinese character is two replacement characters, so the
rules that read Chinese (`段错误`, `未找到命令`, `已杀死`) would never see their words. ASCII reads
the same in both, so a file passes through read for read until its first read that holds a
byte past ASCII; that read, topped up to `PROBE_BYTES`, decides once for the rest:
`looks_like_gb18030` turns the file's reading into decoding only when those bytes are not
UTF-8, are GB18030 without a fault and spell Chinese, which Latin-1 or a binary never do.
"""

from __future__ import annotations

import codecs
import re
from typing import BinaryIO

from analyzers.ingest.streams import ReadOnlyStream, take

PROBE_BYTES = 64 * 1024
DECODE_CHUNK = 1024 * 1024
# Chinese text is CJK ideographs and the punctuation, fullwidth forms and symbols GBK holds.
_CHINESE = re.compile(
    r"[\u00b7\u00d7\u00f7\u2000-\u27bf\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
)
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")


def looks_like_gb18030(data: bytes) -> bool:
    """True when `data` is not UTF-8 but is Chinese written in GBK or GB18030 (its end may
    cut a character). Latin-1 fails here: its accented letters stand alone between ASCII
    letters (an odd run of high bytes), where GBK's two-byte characters come in pairs."""
    if data.isascii() or _is_utf8(data):
        return False
    try:
        text = codecs.getincrementaldecoder("gb18030")("strict").decode(data, False)
    except UnicodeDecodeError:
        return False
    wide = len(text) - sum(1 for char in text if char.isascii())
    chinese = len(_CHINESE.findall(text))
    runs = [len(run) for run in _HIGH_RUN.findall(data)]
    odd = sum(1 for length in runs if length % 2)
    return chinese >= 0.9 * wide and odd <= 0.1 * len(runs)


def _is_utf8(data: bytes) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(data, False)
    except UnicodeDecodeError:
        return False
    return True


class Gb18030Text(ReadOnlyStream):
    """UTF-8 bytes of a GBK/GB18030 stream, else the raw stream's own bytes. Undecodable
    bytes further on become U+FFFD, as a broken UTF-8 byte does elsewhere."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._decided = False
        self._decoder: codecs.IncrementalDecoder | None = None
        self._ready = b""  # bytes to hand out before reading on
        self._eof = False

    def read(self, size: int = -1) -> bytes:
        if not self._ready and self._decoder is not None:
            self._fill_decoded()
        if self._ready:
            data, self._ready = take(self._ready, size)
            return data
        data = self._raw.read(size)
        if self._decided or data.isascii():
            return data
        self._decide(data)
        return self.read(size)

    def _decide(self, data: bytes) -> None:
        """Judge the first read past ASCII, topped up to `PROBE_BYTES`, once for all."""
        self._decided = True
        while len(data) < PROBE_BYTES and (more := self._raw.read(PROBE_BYTES - len(data))):
            data += more
        if looks_like_gb18030(data):
            self._decoder = codecs.getincrementaldecoder("gb18030")("replace")
            self._ready = self._decode(data)
        else:
            self._ready = data

    def _decode(self, data: bytes, final: bool = False) -> bytes:
        return self._decoder.decode(data, final).encode("utf-8")  # type: ignore[union-attr]

    def _fill_decoded(self) -> None:
        while not self._ready and not self._eof:
            fresh = self._raw.read(DECODE_CHUNK)
            self._eof = not fresh
            self._ready = self._decode(fresh, final=self._eof)
