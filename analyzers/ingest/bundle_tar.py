"""The files of a tar bundle, with the tar archives inside it opened in place.

Jobs often ship one archive per node inside the uploaded one (`node3.tar.gz`); its files are
read as `node3.tar.gz/rank24.log`, streamed like the rest (no extraction, no seeking). An
archive nested deeper than `Limits.depth` is not opened (twenty levels of `.tar.gz` is a
bomb, not a job). A zip inside the bundle (`node3.zip`, a node's logs zipped on their own)
keeps its directory at its end, which a stream cannot reach without reading past it: its bytes
are copied to a spooled file first (in memory up to 16 MiB, then on disk), then its entries are
read as a zip bundle's are (`node3.zip/rank24.log`). The copy is charged to the read budget as
it is read from the bundle, so it stops at the total like any read; its entries then use up
that charge before their inflated bytes are charged (`budget.Prepaid`): the zip counts once.
A zip bundle and a directory hand their files to `TarWalker.file` too, so a `node3.tar.gz`, a
`node3.zip` or a gzipped `log_3.log.gz` reads the same whatever holds it.
"""

from __future__ import annotations

import io
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, BinaryIO

from analyzers.core.phrases import say
from analyzers.ingest.budget import Counting, Metered, Prepaid
from analyzers.ingest.compression import gunzip_stream
from analyzers.ingest.gzip_content import GunzipIfPacked, Inflated
from analyzers.ingest.sniff import kind_from_head
from analyzers.ingest.streams import decompressed, drain
from analyzers.ingest.tarstream import TarEntry, TarStream

if TYPE_CHECKING:
    from analyzers.ingest.bundle import Bundle, Member

# Name endings that make a member worth a look inside (its first bytes decide).
ARCHIVE_ENDINGS = (
    *(".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst", ".tzst"),
    ".zip",
)
PEEK = 64 * 1024
_TAR_KINDS = ("tar", "gzip-tar", "bzip2-tar", "xz-tar", "zstd-tar")
GZIP_ENDING = ".gz"
GZIP_MAGIC = b"\x1f\x8b"
SPOOL_IN_MEMORY = 16 * 1024 * 1024  # an inner zip larger than this is spooled to disk


class TarWalker:
    """Walks one tar stream (and the tars inside it) on behalf of a `Bundle`."""

    def __init__(self, bundle: Bundle) -> None:
        self._bundle = bundle
        self._budget = bundle.budget

    def members(self, plain: BinaryIO, prefix: str = "", depth: int = 0) -> Iterator[Member]:
        """The regular files of the tar stream `plain`, named under `prefix`."""
        limit = self._budget.limits.header_bytes
        entries = TarStream(plain, limit, lambda cut: self._budget.note("header_bytes", cut))
        for entry in entries:
            path = self._path_of(entry)
            if path is not None:
                yield from self.file(prefix + path, entry.size, entries.open, entry.mtime, depth)

    def file(
        self,
        path: str,
        size: int,
        opener: Callable[[], BinaryIO],
        mtime: float | None,
        depth: int = 0,
    ) -> Iterator[Member]:
        """One file of the bundle at `depth` archives down: an archive-named or `.gz` one is
        looked into (`opener` is then called at once), any other is a member as it is (or as
        what it inflates to, when its bytes are gzip under a plain name)."""
        lowered = path.lower()
        if lowered.endswith(ARCHIVE_ENDINGS):
            yield from self._inner(opener, path, size, mtime, depth + 1)
        elif lowered.endswith(GZIP_ENDING):
            yield from self._gzipped(opener, path, size, mtime, depth + 1)
        else:
            inflating = partial(self._gunzip_if_packed, opener)
            yield self._bundle.member(path, size, inflating, mtime)

    def _path_of(self, entry: TarEntry) -> str | None:
        if not entry.is_file():
            if not entry.is_dir():
                why = say("skip.member_kind", kind=entry.kind_name())
                self._bundle.skip(entry.name, why)
            return None
        return self._bundle.safe_path(entry.name)

    def _inner(
        self,
        opener: Callable[[], BinaryIO],
        path: str,
        size: int,
        mtime: float | None,
        depth: int,
    ) -> Iterator[Member]:
        """An archive-named member: opened when it is a tar, else read as a plain file."""
        head = io.BufferedReader(opener(), PEEK)  # type: ignore[arg-type]
        kind = kind_from_head(head.peek(PEEK))
        if kind == "zip":
            yield from self._zipped(head, path, depth)
            return
        if kind not in _TAR_KINDS:
            yield self._bundle.member(path, size, lambda: head, mtime)
            return
        yield from self._nested(head, kind, path, depth)

    def _zipped(self, head: BinaryIO, path: str, depth: int) -> Iterator[Member]:
        """A zip member, read entry by entry from a spooled copy of its bytes. Every stream
        this walker is handed is metered, so the copy is charged as it is read and ends where
        the budget does: a zip larger than what may still be read is cut there, and the
        report's limit says so (its directory, at the end, was never reached)."""
        if depth > self._budget.limits.depth:
            depth_limit = self._budget.limits.depth
            self._budget.note("depth", say("limit.depth", path=repr(path), depth=depth_limit))
            return
        # imported here: the zip walker hands the zip's own inner archives back to this one
        from analyzers.ingest.bundle_zip import ZipWalker

        with tempfile.SpooledTemporaryFile(SPOOL_IN_MEMORY) as spool:
            shutil.copyfileobj(head, spool)
            if self._budget.spent:
                return
            paid = spool.tell()
            spool.seek(0)
            if not zipfile.is_zipfile(spool):  # a zip's start with no directory at its end
                why = say("skip.zip_unreadable")
                self._bundle.skip(path, why)
                return
            spool.seek(0)
            yield from ZipWalker(self._bundle, spool, path + "/", depth, paid).members()

    def _gzipped(
        self,
        opener: Callable[[], BinaryIO],
        path: str,
        size: int,
        mtime: float | None,
        depth: int,
    ) -> Iterator[Member]:
        """A `.gz` member: collectors compress rank logs one by one (`log_3.log.gz`, a rotated
        `log_3.log.1.gz`). Read as the file it holds under its own name (the layout rules
        look through the `.gz`); a gzipped tar is opened like any inner archive."""
        head = io.BufferedReader(opener(), PEEK)  # type: ignore[arg-type]
        start = head.peek(PEEK)
        if not start.startswith(GZIP_MAGIC):
            yield self._bundle.member(path, size, lambda: head, mtime)
            return
        if kind_from_head(start) == "gzip-tar":
            yield from self._nested(head, "gzip-tar", path, depth)
            return
        yield self._bundle.member(path, 0, lambda: Inflated(self._metered_gunzip(head)), mtime)

    def _gunzip_if_packed(self, opener: Callable[[], BinaryIO]) -> BinaryIO:
        return GunzipIfPacked(opener(), self._metered_gunzip)  # type: ignore[return-value]

    def _metered_gunzip(self, head: BinaryIO) -> BinaryIO:
        """What a `.gz` member inflates to, counted against the budget like an inner tar's
        bytes: the total and the ratio (against the member's own compressed bytes) hold
        for a gzip bomb shipped as one compressed rank log."""
        packed = Counting(head)
        return Metered(gunzip_stream(packed), self._charged_once(packed), lambda: packed.size)  # type: ignore[arg-type,return-value]

    def _charged_once(self, packed: Counting) -> Prepaid:
        """The budget of what an archive inside the bundle inflates to: its compressed bytes
        were charged as the reader around it read them, so they are handed back as they are
        inflated, and the archive counts once, as the larger of the two."""
        return Prepaid(self._budget, lambda: packed.size)

    def _nested(self, head: BinaryIO, kind: str, path: str, depth: int) -> Iterator[Member]:
        """A tar inside the bundle, opened unless it lies deeper than the limit allows."""
        if depth > self._budget.limits.depth:
            depth_limit = self._budget.limits.depth
            self._budget.note("depth", say("limit.depth", path=repr(path), depth=depth_limit))
            return
        yield from self._open_inner(head, kind, path, depth)

    def _open_inner(self, head: BinaryIO, kind: str, path: str, depth: int) -> Iterator[Member]:
        packed = Counting(head)
        with decompressed(packed, kind) as plain:  # type: ignore[arg-type]
            if kind == "tar":  # its bytes are the bundle's, charged as they are read
                inner = plain
            else:
                inner = Metered(plain, self._charged_once(packed), lambda: packed.size)
            yield from self.members(inner, path + "/", depth)
            drain(inner)
