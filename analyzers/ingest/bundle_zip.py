"""The files of a zip bundle, each inflated as it is read and counted against the budget.

A tar, a zip or a gzipped log inside the zip (`node3.tar.gz`, `node3.zip`, `log_3.log.gz`) is
read as in a tar bundle (`bundle_tar.TarWalker.file`); a zip inside a bundle is walked here too,
from a spooled copy, its files named under its own path.

A zip is read through its central directory, which `zipfile` holds in memory whole (about
400 bytes an entry), so a directory listing far more entries than may be read is refused
before it is loaded. Each member's inflated bytes are metered on their own: the ratio of a
zip bomb is visible per entry (the compressed bytes inflated so far against what came out).
Entries that cannot be read without a password or a compression method `zipfile` lacks are
skipped with a warning, so the rest of the bundle is still analysed.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from analyzers.core.errors import BundleError
from analyzers.core.phrases import say
from analyzers.ingest.budget import Metered, Prepaid
from analyzers.ingest.bundle_tar import TarWalker

if TYPE_CHECKING:
    from analyzers.ingest.bundle import Bundle, Member

ENTRIES_PER_MEMBER = 4  # a zip's directory may list this many entries per file read
ENCRYPTED = 0x1  # general purpose flag bit 0: the entry needs a password (ZipCrypto or AES)
# What `zipfile` inflates; an entry packed another way (Deflate64, PPMd, AES's 99) is skipped
# with a warning like a link, instead of failing the whole bundle when it is opened.
READABLE_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


class ZipWalker:
    """Walks one zip file on behalf of a `Bundle`: the bundle itself, or a zip inside it
    (`source` a seekable copy, its files named under `prefix`, `depth` archives down, `paid`
    the bytes of the copy the budget was charged: its entries' inflated bytes use them up
    before they are charged, `budget.Prepaid`)."""

    def __init__(
        self,
        bundle: Bundle,
        source: IO[bytes] | None = None,
        prefix: str = "",
        depth: int = 0,
        paid: int = 0,
    ) -> None:
        self._bundle = bundle
        self._budget = bundle.budget
        self._meter = Prepaid(bundle.budget, paid) if paid else bundle.budget
        self._source: Path | IO[bytes] = bundle.path if source is None else source
        self._prefix = prefix
        self._depth = depth

    def members(self) -> Iterator[Member]:
        self._check_directory()
        with zipfile.ZipFile(self._source) as zf:
            infos = zf.infolist()
            claimed = sum(info.file_size for info in infos)
            files = TarWalker(self._bundle)  # inner tars and zips, gzipped logs
            for number, info in enumerate(infos):
                if not self._prefix:
                    self._bundle.done = number / max(1, len(infos))
                path = self._path_of(info)
                if path is not None:
                    opener = partial(self._open, zf, info, claimed)
                    yield from files.file(
                        self._prefix + path, info.file_size, opener, _modified(info), self._depth
                    )

    def _path_of(self, info: zipfile.ZipInfo) -> str | None:
        if info.is_dir():
            return None
        mode = (info.external_attr >> 16) & 0o170000
        if mode and mode != 0o100000:
            why = say("skip.not_regular")
        elif info.flag_bits & ENCRYPTED:
            why = say("skip.encrypted")
        elif info.compress_type not in READABLE_METHODS:
            why = say("skip.zip_method", method=info.compress_type)
        else:
            return self._bundle.safe_path(info.filename)
        self._bundle.skip(info.filename, why)
        return None

    def _check_directory(self) -> None:
        if isinstance(self._source, Path):
            with self._source.open("rb") as fh:
                end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]
            name = self._source.name
        else:
            end = zipfile._EndRecData(self._source)  # type: ignore[attr-defined]
            self._source.seek(0)
            name = self._prefix.rstrip("/")
        entries = end[zipfile._ECD_ENTRIES_TOTAL] if end else 0  # type: ignore[attr-defined]
        check_entry_count(name, entries, self._budget.limits.members)

    def _open(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, claimed: int) -> Any:
        try:
            stream = zf.open(info)
        except (NotImplementedError, RuntimeError) as exc:  # unknown method, encrypted
            name = repr(info.filename)
            raise BundleError.saying("error.zip_member", name=name, detail=str(exc)) from exc
        return Metered(stream, self._meter, partial(_packed_so_far, stream, info), claimed)


def check_entry_count(name: str, entries: int, members: int) -> None:
    """Refuse a directory listing far more entries than `members` files may be read."""
    most = ENTRIES_PER_MEMBER * members
    if entries > most:
        raise BundleError.saying(
            "error.zip_too_many",
            name=name,
            entries=f"{entries:,}",
            most=f"{most:,}",
            members=f"{members:,}",
            per=ENTRIES_PER_MEMBER,
        )


def _packed_so_far(stream: zipfile.ZipExtFile, info: zipfile.ZipInfo) -> int:
    """The member's compressed bytes inflated so far, so its ratio is judged as it is read,
    as a tar.gz's is. Against the member's whole compressed size a deflate bomb (about
    1,030:1 at best) only shows near its end, after gigabytes. `zipfile` keeps what it
    pulled from the file but has not inflated yet in the decompressor's tail; without
    those private fields (another Python) the whole size is used, as before."""
    left = getattr(stream, "_compress_left", None)
    if left is None:
        return info.compress_size
    tail = getattr(getattr(stream, "_decompressor", None), "unconsumed_tail", b"")
    return info.compress_size - left - len(tail)


def _modified(info: zipfile.ZipInfo) -> float | None:
    """The member's time as the zip recorded it (local time, to the two seconds)."""
    try:
        return datetime(*info.date_time).timestamp()
    except (ValueError, OverflowError):
        return None
