"""Whether a zip's central directory is whole, checked entry by entry in bounded memory.

A zip is read through its central directory, the list of members at its end. A zip cut short
in transfer still starts with `PK\\x03\\x04`, so it sniffs as a zip, and it failed only when its
analysis opened it (`File is not a zip file`). The upload walks the directory first, the way
`zipfile` reads it (the end record, then entries for the directory's size, each member's
offset moved by any bytes before the archive), but through a file buffer one entry at a time:
`zipfile` would hold the whole list, about 400 bytes an entry. Each entry's member must start
with a local header where the entry says, before the directory, as `zipfile` checks when the
member is opened: the local header's name must be the entry's, or two entries overlap (one
member's data read under two names). What makes `zipfile` refuse the whole list is refused
here too: a name that says it is UTF-8 and is not, an extra field longer than its entry, a
version to extract newer than `zipfile` reads.

    job.zip: the zip has no central directory (the list of its members at its end); ...
"""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

from analyzers.core.errors import BundleError
from analyzers.core.limits import Limits
from analyzers.ingest.bundle_zip import check_entry_count

_ENTRY = struct.Struct("<4s4B4HL2L5H2L")  # a central directory entry's fixed part
_LOCAL = struct.Struct("<4s2B4HL2L2H")  # a member's local header's fixed part
_ENTRY_SIGNATURE = b"PK\x01\x02"
_LOCAL_SIGNATURE = b"PK\x03\x04"
_ZIP64_END = b"PK\x06\x06"
_ZIP64_TAIL = 56 + 20  # the zip64 end record and its locator, between directory and end
_ZIP64_EXTRA = 0x0001
_FULL32 = 0xFFFFFFFF
_UTF8_NAME = 0x800  # general purpose flag bit 11
_NEWEST_VERSION = zipfile.MAX_EXTRACT_VERSION


def check_zip_directory(path: str | os.PathLike[str], limits: Limits | None = None) -> None:
    """Raise BundleError naming what is wrong when the zip's directory cannot be read, or
    lists more entries than an analysis under `limits` would open."""
    p = Path(path)
    with p.open("rb") as fh, p.open("rb", buffering=4096) as members:
        try:
            end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]
        except (OSError, zipfile.BadZipFile):
            end = None
        if not end:
            raise BundleError.saying("error.zip_no_directory", name=p.name)
        if limits is not None:
            entries = end[zipfile._ECD_ENTRIES_TOTAL]  # type: ignore[attr-defined]
            check_entry_count(p.name, entries, limits.members)
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
            filename = _name(self.fh.read(name_length), entry[5])
            if filename is None:
                self.fail(f"entry {number} of {self.total} says its name is UTF-8 but it is not")
            if entry[3] > _NEWEST_VERSION:
                need, most = entry[3], _NEWEST_VERSION
                self.fail(
                    f"{filename!r} needs zip version {need // 10}.{need % 10} to extract; "
                    f"{most // 10}.{most % 10} is read"
                )
            extra = self.fh.read(extra_length)
            if not _whole_extra(extra):
                self.fail(f"{filename!r} has an extra field longer than its entry")
            self.fh.seek(comment_length, os.SEEK_CUR)
            self.check_member(filename, _header_offset(entry, extra))
            read += _ENTRY.size + name_length + extra_length + comment_length

    def check_member(self, filename: str, offset: int | None) -> None:
        at = None if offset is None else offset + self.concat
        local = None
        if at is not None and 0 <= at < self.start:
            self.members.seek(at)
            local = self.members.read(_LOCAL.size)
        if local is None or len(local) != _LOCAL.size or local[:4] != _LOCAL_SIGNATURE:
            self.fail(f"{filename!r} points at no member's data")
        header = _LOCAL.unpack(local)
        named = _name(self.members.read(header[10]), header[3])
        if named != filename:  # zipfile refuses to open the member
            self.fail(f"{filename!r} points at the data of {named!r}")

    def fail(self, detail: str) -> None:
        raise BundleError.saying("error.zip_directory", name=self.name, detail=detail)


def _name(raw: bytes, flags: int) -> str | None:
    """The name as zipfile decodes it (None: flagged UTF-8 but not)."""
    if not flags & _UTF8_NAME:
        return raw.decode("cp437")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _whole_extra(extra: bytes) -> bool:
    """Whether every field of an extra block fits in it, as zipfile requires."""
    at = 0
    while len(extra) - at >= 4:
        (length,) = struct.unpack_from("<H", extra, at + 2)
        if at + 4 + length > len(extra):
            return False
        at += 4 + length
    return True


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
