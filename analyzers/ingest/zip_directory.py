"""Whether a zip's central directory is whole, checked entry by entry in bounded memory.

A zip is read through its central directory, the list of members at its end. A zip cut short
in transfer still starts with `PK\\x03\\x04`, so it sniffs as a zip, and it failed only when its
analysis opened it (`File is not a zip file`). The upload walks the directory first, the way
`zipfile` reads it (the end record, then entries for the directory's size, each member's
offset moved by any bytes before the archive), but through a file buffer one entry at a time:
`zipfile` would hold the whole list, about 400 bytes an entry. Each entry's member must start
with a local header where the entry says, before the directory, as `zipfile` checks when the
member is opened.

    job.zip: the zip has no central directory (the list of its members at its end); ...
"""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

from analyzers.core.errors import BundleError

_ENTRY = struct.Struct("<4s4B4HL2L5H2L")  # a central directory entry's fixed part
_ENTRY_SIGNATURE = b"PK\x01\x02"
_LOCAL_SIGNATURE = b"PK\x03\x04"
_ZIP64_END = b"PK\x06\x06"
_ZIP64_TAIL = 56 + 20  # the zip64 end record and its locator, between directory and end
_ZIP64_EXTRA = 0x0001
_FULL32 = 0xFFFFFFFF


def check_zip_directory(path: str | os.PathLike[str]) -> None:
    """Raise BundleError naming what is wrong when the zip's directory cannot be read."""
    p = Path(path)
    with p.open("rb") as fh, p.open("rb", buffering=4096) as members:
        try:
            end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]
        except (OSError, zipfile.BadZipFile):
            end = None
        if not end:
            raise BundleError.saying("error.zip_no_directory", name=p.name)
        _Walk(p.name, end, fh, members).entries()


class _Walk:
    """One pass over the directory's entries, reading each member's first bytes aside."""

    def __init__(self, name: str, end: list, fh: BinaryIO, members: BinaryIO) -> None:
        self.name, self.fh, self.members = name, fh, members
        self.size = end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]
        self.total = end[zipfile._ECD_ENTRIES_TOTAL]  # type: ignore[attr-defined]
        offset = end[zipfile._ECD_OFFSET]  # type: ignore[attr-defined]
        # bytes before the archive (a self-extracting stub): zipfile moves every offset by them
        self.concat = end[zipfile._ECD_LOCATION] - self.size - offset  # type: ignore[attr-defined]
        if end[zipfile._ECD_SIGNATURE] == _ZIP64_END:  # type: ignore[attr-defined]
            self.concat -= _ZIP64_TAIL
        self.start = offset + self.concat

    def entries(self) -> None:
        if self.start < 0:
            self.fail("it would start before the file does")
        self.fh.seek(self.start)
        read, number = 0, 0
        while read < self.size:
            number += 1
            fixed = self.fh.read(_ENTRY.size)
            if len(fixed) != _ENTRY.size or fixed[:4] != _ENTRY_SIGNATURE:
                self.fail(f"entry {number} of {self.total} is no directory entry")
            entry = _ENTRY.unpack(fixed)
            name_length, extra_length, comment_length = entry[12:15]
            filename = self.fh.read(name_length)
            extra = self.fh.read(extra_length)
            self.fh.seek(comment_length, os.SEEK_CUR)
            self.check_member(filename, _header_offset(entry, extra))
            read += _ENTRY.size + name_length + extra_length + comment_length

    def check_member(self, filename: bytes, offset: int | None) -> None:
        at = None if offset is None else offset + self.concat
        if at is not None and 0 <= at < self.start:
            self.members.seek(at)
            if self.members.read(4) == _LOCAL_SIGNATURE:
                return
        shown = repr(filename.decode("utf-8", "replace"))
        self.fail(f"{shown} points at no member's data")

    def fail(self, detail: str) -> None:
        raise BundleError.saying("error.zip_directory", name=self.name, detail=detail)


def _header_offset(entry: tuple, extra: bytes) -> int | None:
    """Where the entry's member starts; a zip64 entry keeps it in its extra field (after
    the sizes that did not fit 32 bits, in that order). None: the extra field lacks it."""
    sizes_full = [value for value in (entry[11], entry[10]) if value == _FULL32]
    offset = entry[18]
    if offset != _FULL32:
        return offset
    at = 0
    while at + 4 <= len(extra):
        kind, length = struct.unpack_from("<HH", extra, at)
        if kind == _ZIP64_EXTRA:
            field = extra[at + 4 + 8 * len(sizes_full) : at + 4 + length]
            return struct.unpack_from("<Q", field)[0] if len(field) >= 8 else None
        at += 4 + length
    return None
