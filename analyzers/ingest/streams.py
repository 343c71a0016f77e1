"""Thin stream wrappers the bundle reader stacks between the upload file and a scanner.

Each does one thing to bytes in flight: hash them (so a multi-GB upload is not read twice),
decompress a tar stream, lend a handle without letting it be closed, or translate a
decompressor's own way of saying "corrupt" into the archive error the reader reports.
"""

from __future__ import annotations

import bz2
import hashlib
import io
import lzma
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

import zstandard

from analyzers.ingest.compression import gunzip_stream

HASH_CHUNK = 1024 * 1024


@contextmanager
def decompressed(raw: BinaryIO, kind: str) -> Iterator[BinaryIO]:
    """The tar bytes of a (compressed) tar bundle, decompressed as they are read."""
    if kind == "gzip-tar":
        with gunzip_stream(raw) as plain:
            yield plain
    elif kind == "bzip2-tar":
        with bz2.BZ2File(raw) as plain:
            yield _Decompressing(plain)  # type: ignore[misc]
    elif kind == "xz-tar":
        with lzma.LZMAFile(raw) as plain:
            yield _Decompressing(plain)  # type: ignore[misc]
    elif kind == "zstd-tar":
        # `tar --zstd` on a stream may write several frames; all of them are the archive
        reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
        with reader as plain:
            yield _Decompressing(plain)  # type: ignore[misc]
    else:
        yield raw


def take(buffer: bytes, size: int) -> tuple[bytes, bytes]:
    """Up to `size` bytes of a stream's read-ahead (all of it for a negative size) and the
    rest: a wrapper that reads ahead still hands out no more than `read(size)` asked for."""
    if size < 0 or size >= len(buffer):
        return buffer, b""
    return buffer[:size], buffer[size:]


def drain(stream: BinaryIO) -> None:
    """Read a decompressed stream to its end: only there does gzip check its CRC, so a
    damaged archive whose tar part still parsed is caught instead of read as garbage."""
    while stream.read(HASH_CHUNK):
        pass


class ReadOnlyStream(io.RawIOBase):
    """A readable raw stream defined by its `read(size)` alone: `readinto` follows from it.

    Every wrapper the bundle reader stacks (hashing, decompressing, guarding, teeing) is
    one of these, so each only says what it does to the bytes in flight."""

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)


class _Decompressing(ReadOnlyStream):
    """bz2 says "corrupt" with a bare OSError, zstd with its own error: name it, like any
    other damaged archive."""

    def __init__(self, plain: BinaryIO) -> None:
        self._plain = plain

    def read(self, size: int = -1) -> bytes:
        try:
            return self._plain.read(size)
        except (OSError, lzma.LZMAError, zstandard.ZstdError) as exc:
            raise tarfile.ReadError(f"invalid compressed data: {exc}") from exc


class HashingReader(ReadOnlyStream):
    """Passes reads through and feeds every byte read to a SHA-256."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.digest = hashlib.sha256()
        self.size = 0

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self.digest.update(data)
        self.size += len(data)
        return data

    def tell(self) -> int:
        return self.size

    def read_rest(self) -> None:
        while self.read(HASH_CHUNK):
            pass


class Unclosing(ReadOnlyStream):
    """The bundle's own file handle, lent to one reader without letting it close it."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw

    def read(self, size: int = -1) -> bytes:
        return self._raw.read(size)
