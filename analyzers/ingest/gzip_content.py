"""Files that hold gzip data under a plain name, read as the text they inflate to.

A collector may compress each rank's log in place without renaming it (`gzip -c rank1.log >
out/rank1.log`, an exporter that always deflates). Read as bytes, such a `rank1.log` is
compressed noise with no line to search: its error would go unseen. Its first bytes say what
it is, so a file that starts with a gzip header that inflates is read through the inflater
the caller gives (metered like any `.gz` member); any other file passes through untouched,
read for read. An inflated file tells how many bytes it inflated to (`inflated_size`), so the
report lists the size of the text that was read, not of the compressed bytes.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import BinaryIO

from analyzers.ingest.streams import ReadOnlyStream, take

GZIP_MAGIC = b"\x1f\x8b"


def starts_as_gzip(head: bytes) -> bool:
    """True when `head` opens a gzip stream whose first bytes inflate (not a text file that
    happens to start with the two magic bytes)."""
    if not head.startswith(GZIP_MAGIC):
        return False
    try:
        zlib.decompressobj(31).decompress(head, 1)
    except zlib.error:
        return False
    return True


class Inflated(ReadOnlyStream):
    """What an inflater put out, counted: the member's size is what it inflated to, which
    neither its compressed size nor a `.gz` member's unstated one (0) tells."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.inflated_size = 0

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self.inflated_size += len(data)
        return data

    def close(self) -> None:
        self._raw.close()
        super().close()


class GunzipIfPacked(ReadOnlyStream):
    """The bytes of `raw`, inflated by `inflate` when its first read shows gzip data."""

    def __init__(self, raw: BinaryIO, inflate: Callable[[BinaryIO], BinaryIO]) -> None:
        self._raw = raw
        self._inflate = inflate
        self._source: BinaryIO | None = None  # chosen at the first read

    @property
    def inflated_size(self) -> int | None:
        """The bytes read so far when they were inflated; None for a file read as it is."""
        return self._source.inflated_size if isinstance(self._source, Inflated) else None

    def read(self, size: int = -1) -> bytes:
        if self._source is None:
            head = self._raw.read(size)
            if not starts_as_gzip(head):
                self._source = self._raw
                return head
            self._source = Inflated(self._inflate(_Replayed(head, self._raw)))  # type: ignore[arg-type]
        return self._source.read(size)

    def close(self) -> None:
        if self._source is not None and self._source is not self._raw:
            self._source.close()
        self._raw.close()
        super().close()


class _Replayed(ReadOnlyStream):
    """`head`, already read from `raw`, then the rest of `raw`."""

    def __init__(self, head: bytes, raw: BinaryIO) -> None:
        self._head = head
        self._raw = raw

    def read(self, size: int = -1) -> bytes:
        if self._head:
            data, self._head = take(self._head, size)
            return data
        return self._raw.read(size)
