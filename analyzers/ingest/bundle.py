"""Read a job's log bundle member by member, as streams, without extracting it.

A bundle is what users upload: `.tar`, `.tar.gz`/`.tgz` (also bz2/xz/zstd), `.zip`, a single
`.log`/`.txt` file or a single gzip-compressed log. A directory is accepted too (CLI use).
Whatever holds them, a tar inside the bundle is opened and a `log_3.log.gz` is inflated
(`bundle_tar.TarWalker.file`).
Members that could escape a directory if someone did extract them (absolute paths, `..`,
links, devices, FIFOs) are skipped with a recorded warning: the bundle comes from outside.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

import zstandard

from analyzers.core.errors import BundleError
from analyzers.core.limits import LimitHit, Limits
from analyzers.core.phrases import Said, say
from analyzers.core.safetext import clean_name
from analyzers.core.types import FileKind, SkippedFile
from analyzers.ingest.binary_member import HeadFirst, binary_kind, read_head
from analyzers.ingest.budget import Metered, ReadBudget
from analyzers.ingest.bundle_tar import TarWalker
from analyzers.ingest.bundle_zip import ZipWalker
from analyzers.ingest.compression import INFLATE_ERRORS, gunzip_stream
from analyzers.ingest.gzip_content import Inflated
from analyzers.ingest.layout import COPY_MARK
from analyzers.ingest.sniff import mislabel_warning, sniff_kind
from analyzers.ingest.streams import (
    HASH_CHUNK,
    HashingReader,
    ReadOnlyStream,
    Unclosing,
    decompressed,
    drain,
)

PROGRESS_EVERY = 8 * 1024 * 1024


@dataclass(slots=True)
class Member:
    """One regular file inside a bundle. `open()` is valid while iterating the bundle."""

    path: str
    size: int
    _opener: object = field(repr=False, default=None)
    _on_read: Callable[[int], None] | None = field(repr=False, default=None)
    _budget: ReadBudget | None = field(repr=False, default=None)
    modified: float | None = None  # the file's modification time, when the bundle kept one
    _opened: BinaryIO | None = field(repr=False, default=None)  # peeked at, handed out next

    def open(self) -> BinaryIO:
        if self._opened is not None:  # the bundle read its first block: a tar cannot rewind
            stream, self._opened = self._opened, None
            return stream
        try:
            raw = self._opener()  # type: ignore[operator]
        except READ_ERRORS as exc:  # a zip checks overlapping entries here
            raise BundleError.saying("error.corrupt", name=str(self.path), detail=str(exc)) from exc
        return _GuardedStream(raw, self.path, self._on_read, self._budget)  # type: ignore[return-value]


READ_ERRORS = (
    *(tarfile.TarError, zipfile.BadZipFile, lzma.LZMAError, zstandard.ZstdError),
    *INFLATE_ERRORS,
)
MAX_WARNINGS = 200  # warnings kept word for word; the rest are counted


class _GuardedStream(ReadOnlyStream):
    """Turns a truncated or corrupt archive, found mid-read, into a BundleError.

    When a budget stopped the reading, the cut shows as the end of the file instead."""

    def __init__(
        self,
        raw: BinaryIO,
        path: str,
        on_read: Callable[[int], None] | None,
        budget: ReadBudget | None = None,
    ) -> None:
        self._raw = raw
        self._path = path
        self._on_read = on_read
        self._budget = budget

    @property
    def inflated_size(self) -> int | None:
        """What the member inflated to so far, when it was read through an inflater."""
        return getattr(self._raw, "inflated_size", None)

    def read(self, size: int = -1) -> bytes:
        try:
            data = self._raw.read(size)
        except READ_ERRORS as exc:
            if self._budget is not None and self._budget.spent:
                return b""
            detail = str(exc)
            raise BundleError.saying("error.truncated", name=self._path, detail=detail) from exc
        if self._on_read and data:
            self._on_read(len(data))
        return data

    def close(self) -> None:
        self._raw.close()
        super().close()


def file_sha256(path: str | os.PathLike[str]) -> tuple[str, int]:
    """SHA-256 and size of a file (0 and an empty hash's digest for a directory)."""
    digest = hashlib.sha256()
    size = 0
    if Path(path).is_dir():
        return digest.hexdigest(), 0
    with open(path, "rb") as fh:
        while chunk := fh.read(HASH_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


class Bundle:
    """Iterate the safe regular-file members of a bundle; unsafe ones land in `warnings`
    (English) and `warnings_zh` (the same warnings in Chinese, item for item).

    Reading stays within `limits` (see `analyzers.core.limits`): what a budget cut is listed by
    `limit_hits()` once the members have been read through."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        on_progress: Callable[[float], None] | None = None,
        limits: Limits | None = None,
        name: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.kind = sniff_kind(self.path)
        self.warnings: list[str] = []
        self.warnings_zh: list[str] = []
        self.budget = ReadBudget(limits or Limits.from_env())
        self._raw: BinaryIO | None = None
        self._digest: tuple[str, int] | None = None
        self.done = 0.0  # progress where the file position says nothing (zip entries)
        self._on_progress = on_progress
        self._unreported = 0
        self._bytes_read = 0
        self._unlisted_warnings = 0
        self.skipped = 0
        self._first_skip: Said | None = None
        # members skipped as binary, each with how many members were handed out before it
        self.binary: list[tuple[int, SkippedFile]] = []
        self._first_binary: Said | None = None
        self._binary_bytes = 0  # their first blocks, read to tell: no log text
        self._handed_out = 0
        self._paths_read: set[str] = set()
        self._last_copy: dict[str, int] = {}
        if mislabel := mislabel_warning(name or self.path.name, self.kind):
            self.warn(mislabel)

    def warn(self, message: Said) -> None:
        """Keep a warning; past MAX_WARNINGS they are only counted (200,000 symlinks...)."""
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(message.en)
            self.warnings_zh.append(message.zh)
        else:
            self._unlisted_warnings += 1

    def skip(self, name: str, why: Said) -> None:
        """Warn that member `name` is not read, and count it: a bundle whose every file was
        skipped must say so, not that it holds no files."""
        said = self._warn_skipped(name, why)
        self.skipped += 1
        self._first_skip = self._first_skip or said

    def _warn_skipped(self, name: str, why: Said) -> Said:
        said = say("bundle.skipped", name=repr(name), why=why)
        self.warn(said)
        return said

    def limit_hits(self) -> list[LimitHit]:
        return self.budget.finish()

    def all_warnings(self) -> list[Said]:
        """Every kept warning, then one line counting those past MAX_WARNINGS."""
        kept = [Said(en, zh) for en, zh in zip(self.warnings, self.warnings_zh, strict=True)]
        extra = self._unlisted_warnings
        return kept + ([say("bundle.more_warnings", count=f"{extra:,}")] if extra else [])

    def _count_read(self, size: int) -> None:
        """Report progress every few MB so a single huge log still moves the bar."""
        self._bytes_read += size
        self._unreported += size
        if self._on_progress and self._unreported >= PROGRESS_EVERY:
            self._unreported = 0
            self._on_progress(self.fraction_read())

    def check_holds_text(self) -> None:
        """Refuse, once its members have been read through, a bundle none of whose files held
        a byte (no files, only folders, only empty files): there is nothing to diagnose, and
        the report of an empty bundle would read as a job that logged nothing. A bundle a
        budget cut before its first byte is left to the limit's message."""
        if self._bytes_read > self._binary_bytes or self.budget.hits or self.budget.members_unread:
            return
        if self.binary:
            raise BundleError(self._binary_refusal())
        if self._first_skip:
            count = f"{self.skipped:,}"
            raise BundleError(
                say("error.all_skipped", name=self.path.name, count=count, first=self._first_skip)
            )
        raise BundleError.saying("error.no_log_text", name=self.path.name)

    def _binary_refusal(self) -> Said:
        """Nothing but binaries (and perhaps unsafe members) is no log: say how many were
        binary, so the uploader looks for the logs that were left out of the bundle."""
        name, count, first = self.path.name, f"{len(self.binary):,}", self._first_binary
        assert first is not None
        if self._first_skip is None:
            return say("error.only_binary", name=name, count=count, first=first)
        others, other = f"{self.skipped:,}", self._first_skip
        return say(
            "error.binary_and_skipped",
            name=name,
            count=count,
            first=first,
            others=others,
            other=other,
        )

    def fraction_read(self) -> float:
        """How far through the bundle file the reader is (0..1), for progress bars."""
        if self._raw is not None and not self._raw.closed:
            size = self.path.stat().st_size or 1
            return min(1.0, self._raw.tell() / size)
        return self.done

    def members(self) -> Iterator[Member]:
        """The members to read, in bundle order; past the file count they are only counted."""
        for member in self._all_members():
            if self.budget.admit_member():
                member.path = self._unique_path(member.path)
                if self._holds_text(member):
                    self._handed_out += 1
                    yield member

    def _holds_text(self, member: Member) -> bool:
        """Read the member's first block to tell text from binary (`ingest.binary_member`);
        a binary one is skipped and listed, a text one is handed out with that block first."""
        stream = member.open()
        head = read_head(stream)
        kind = binary_kind(head)
        if kind is None:
            member._opened = HeadFirst(head, stream)  # type: ignore[assignment]
            return True
        stream.close()
        self._binary_bytes += len(head)
        why = say("skip.binary", what=say(f"binary.{kind}"))
        said = self._warn_skipped(member.path, why)
        self._first_binary = self._first_binary or said
        listed = SkippedFile(member.path, FileKind.OTHER, None, 0, member.size, member.modified)
        listed.skipped, listed.skipped_zh = why.en, why.zh
        self.binary.append((self._handed_out, listed))
        return False

    def _unique_path(self, path: str) -> str:
        """A path already read, as a tar appended to with `tar -r` or a collector that packs
        each node's files under the same names holds it: both copies are real, so the later
        one is read under a path of its own (`layout.logical_path` still names and ranks it
        like the first), and evidence never points into the other copy's lines."""
        unique = path
        if unique in self._paths_read:
            # numbers below the last one given are all taken: start after it, or a path held
            # N times would try 2, 3, ... for each copy (quadratic in N)
            copy = self._last_copy.get(path, 1)
            while unique in self._paths_read:
                copy += 1
                unique = f"{path}{COPY_MARK.format(copy)}"
            self._last_copy[path] = copy
            self.warn(say("bundle.repeated_path", name=repr(path), shown=repr(unique)))
        self._paths_read.add(unique)
        return unique

    def _all_members(self) -> Iterator[Member]:
        readers = {
            "dir": self._dir_members,
            "zip": self._zip_members,
            "gzip-log": self._single_members,
            "log": self._single_members,
        }
        reader = readers.get(self.kind, self._tar_members)
        try:
            yield from reader()
        except READ_ERRORS as exc:
            if self.budget.spent:  # the reader was stopped on purpose: a budget ran out
                return
            raise BundleError.saying(
                "error.truncated", name=self.path.name, detail=str(exc)
            ) from exc

    def _tar_members(self) -> Iterator[Member]:
        # Streamed: no seeking, so a multi-GB .tar.gz is read once, front to back.
        with self._open_hashing() as raw, decompressed(raw, self.kind) as plain:
            metered = Metered(plain, self.budget, raw.tell)  # a plain tar: ratio 1, size counts
            yield from TarWalker(self).members(metered)
            drain(metered)

    def _zip_members(self) -> Iterator[Member]:
        yield from ZipWalker(self).members()

    def _single_members(self) -> Iterator[Member]:
        name = clean_name(self.path.name)
        stat = self.path.stat()
        size, modified = stat.st_size, stat.st_mtime
        with self._open_hashing() as raw:
            if self.kind == "gzip-log":
                name = name[:-3] if name.endswith(".gz") else name + ".log"
                yield self.member(
                    name,
                    0,
                    lambda: Inflated(Metered(gunzip_stream(raw), self.budget, raw.tell)),
                    modified,
                )
            else:
                yield self.member(
                    name, size, lambda: Metered(Unclosing(raw), self.budget, raw.tell), modified
                )

    @contextmanager
    def _open_hashing(self) -> Iterator[HashingReader]:
        """The bundle file, hashed as it is read: no second pass over a multi-GB upload."""
        with self.path.open("rb") as fh:
            raw = HashingReader(fh)
            self._raw = raw  # type: ignore[assignment]
            yield raw
            raw.read_rest()  # tar padding after the end marker still counts
            self._digest = (raw.digest.hexdigest(), raw.size)

    def sha256(self) -> tuple[str, int]:
        """SHA-256 and size of the bundle file; free once `members()` has been read through."""
        return self._digest or file_sha256(self.path)

    def member(
        self, path: str, size: int, opener: Callable[[], Any], modified: float | None = None
    ) -> Member:
        return Member(path, size, opener, self._count_read, self.budget, modified)

    def _dir_members(self) -> Iterator[Member]:
        walker = TarWalker(self)  # inner tars and zips, gzipped logs
        for root, dirs, files in os.walk(self.path, followlinks=False):
            dirs.sort()
            for name in sorted(files):
                full = Path(root, name)
                rel = clean_name(full.relative_to(self.path).as_posix())
                if full.is_symlink() or not full.is_file():
                    self.skip(rel, say("skip.not_regular"))
                    continue
                stat = full.stat()
                opener = partial(self._open_file, full)
                yield from walker.file(rel, stat.st_size, opener, stat.st_mtime)

    def _open_file(self, full: Path) -> Any:
        fh = full.open("rb")
        return Metered(fh, self.budget, fh.tell)

    def safe_path(self, name: str) -> str | None:
        problem = unsafe_reason(name)
        if problem:
            self.skip(name, problem)
            return None
        return clean_name(normalise_member_path(name))


def unsafe_reason(name: str) -> Said | None:
    """Why a member name must not be trusted, or None when it is a plain relative path."""
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return say("skip.absolute")
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if ".." in parts:
        return say("skip.escapes")
    if "\x00" in name:
        return say("skip.nul")
    if not normalise_member_path(name):  # "", ".", "./"
        return say("skip.empty_name")
    return None


def normalise_member_path(name: str) -> str:
    parts = [p for p in PurePosixPath(name.replace("\\", "/")).parts if p not in (".", "")]
    return "/".join(parts)


@contextmanager
def open_member(path: str | os.PathLike[str], member_path: str) -> Iterator[BinaryIO]:
    """Open one member by its normalised path (scans the archive; tar.gz cannot seek)."""
    bundle = Bundle(path)
    for member in bundle.members():
        if member.path == member_path:
            with member.open() as stream:
                yield stream
            return
    raise BundleError.saying("error.not_in_bundle", name=repr(member_path))
