"""Bundle members that hold no log text: plots, checkpoints, core dumps, profiles, libraries.

A job's bundle carries binaries beside its logs (`loss.png`, `model.safetensors`, `core.4711`,
an `nsys` or `perf` profile, a `.so`). Read as a log, their bytes make lines of noise that the
classifier may quote as the job's first error. Each member's first block decides, by the test
that refuses a binary upload (`sniff.looks_like_text`): logs with odd bytes, a crashed writer's
NUL padding, Latin-1 or GB18030 text and UTF-16 stay text. A few formats are named by their
first bytes (a safetensors header is JSON text, so only its signature tells). A first block of
NULs alone says nothing either way and is read as before. The block is handed back in front of
the rest (`HeadFirst`), so a text member is still read once, front to back.
"""

from __future__ import annotations

from typing import BinaryIO

from analyzers.ingest.sniff import looks_like_text
from analyzers.ingest.streams import ReadOnlyStream, take

HEAD_BYTES = 8192  # what `looks_like_text` weighs

# First bytes that name a binary format, for the reason the report gives (`binary.<kind>`).
# Not gzip's two bytes: a gzip member is read as what it inflates to, and a text that merely
# starts with them is read as it is (`gzip_content`).
SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"%PDF-", "pdf"),
    (b"\x7fELF", "elf"),
    (b"PK\x03\x04", "zip"),
    (b"SQLite format 3\0", "sqlite"),
    (b"PERFILE2", "perf"),
    (b"\xfd7zXZ\x00", "compressed"),
    (b"\x28\xb5\x2f\xfd", "compressed"),  # zstd
)
# Odd bytes a member may hold beyond the hundredth of its first block: a short log cut by a
# crash (its NUL run) with one stray byte is still a log; the upload's own test has none.
SHORT_SLACK = 2
# A safetensors file: an 8-byte little-endian header length, then the header's JSON.
SAFETENSORS_MAX_HEADER = 100 * 1024 * 1024


def binary_kind(head: bytes) -> str | None:
    """What binary a member's first block shows (a `binary.<kind>` phrase), None for text."""
    for magic, kind in SIGNATURES:
        if head.startswith(magic):
            return kind
    if _starts_safetensors(head):
        return "safetensors"
    if not head.strip(b"\0"):  # nothing but NULs (or nothing): a log never written, not a binary
        return None
    return None if looks_like_text(head, slack=SHORT_SLACK) else "other"


def _starts_safetensors(head: bytes) -> bool:
    length = int.from_bytes(head[:8], "little")
    return len(head) >= 10 and 2 <= length <= SAFETENSORS_MAX_HEADER and head[8:10] == b'{"'


def read_head(stream: BinaryIO, size: int = HEAD_BYTES) -> bytes:
    """Up to `size` first bytes: an inflater may hand out fewer than asked before the end."""
    head = b""
    while len(head) < size and (data := stream.read(size - len(head))):
        head += data
    return head


class HeadFirst(ReadOnlyStream):
    """`head`, already read from `raw`, then the rest of `raw`, which it closes."""

    def __init__(self, head: bytes, raw: BinaryIO) -> None:
        self._head = head
        self._raw = raw

    @property
    def inflated_size(self) -> int | None:
        """As the stream under it tells (`scan.parallel.listed_size` reads it)."""
        return getattr(self._raw, "inflated_size", None)

    def read(self, size: int = -1) -> bytes:
        if self._head:
            data, self._head = take(self._head, size)
            if size < 0:
                data += self._raw.read()
            return data
        return self._raw.read(size)

    def close(self) -> None:
        self._raw.close()
        super().close()
