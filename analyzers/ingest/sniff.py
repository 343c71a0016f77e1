"""Tell what an uploaded file is from its first bytes, not its name.

Users upload whatever their CI produced: a `.tgz` named `.zip`, a single log without an
extension, a gzipped log, sometimes a screenshot. The kind decides how `Bundle` reads it, and
anything that is no log bundle is refused here with a message that says what is accepted.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import zlib
from pathlib import Path

import zstandard

from analyzers.core.errors import BundleError
from analyzers.core.phrases import Said, say
from analyzers.ingest.utf16 import starts_utf16

SNIFF_BYTES = 64 * 1024
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# A zip that is only its end record, counting no entries: what zipping nothing leaves.
EMPTY_ZIP = b"PK\x05\x06\0\0\0\0\0\0\0\0"


def sniff_kind(path: str | os.PathLike[str]) -> str:
    """Tell what a bundle file is from its bytes, not its name.

    Returns one of "dir", "tar", "zip", "gzip-tar", "gzip-log", "bzip2-tar", "xz-tar",
    "zstd-tar", "log".
    Raises BundleError for anything else (images, executables, empty files...); an archive
    its first bytes show to be empty (a tar of no files, a zip of no entries) is refused as
    holding no log text, as the analysis refuses one whose files turn out to be empty.
    """
    p = Path(path)
    if p.is_dir():
        return "dir"
    if not p.is_file():
        raise BundleError.saying("error.no_such_file", name=p.name)
    with p.open("rb") as fh:
        head = fh.read(SNIFF_BYTES)
    if not head:
        raise BundleError.saying("error.empty", name=p.name)
    if head.startswith(b"\x1f\x8b"):
        return _sniff_gzip(p)
    if head.startswith(EMPTY_ZIP):
        raise BundleError.saying("error.no_log_text", name=p.name)
    if not head.strip(b"\0") and (size := _nuls_to_the_end(p)) is not None:
        raise BundleError.saying("error.only_nuls", name=p.name, size=f"{size:,}")
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.startswith(b"BZh"):
        return _sniff_packed(p, head, "bzip2")
    if head.startswith(b"\xfd7zXZ\x00"):
        return _sniff_packed(p, head, "xz")
    if head.startswith(ZSTD_MAGIC):
        return _sniff_zstd(p, head)
    if archive := _ARCHIVES_NOT_READ.get(head[:6]):
        raise BundleError.saying("error.archive_not_read", name=p.name, archive=say(archive))
    if _looks_like_tar(head):
        return "tar"
    if looks_like_text(head):
        return "log"
    raise BundleError.saying("error.not_a_bundle", name=p.name)


def _sniff_gzip(p: Path) -> str:
    try:
        with gzip.open(p, "rb") as fh:
            inner = fh.read(SNIFF_BYTES)
    except (OSError, EOFError, zlib.error) as exc:
        raise BundleError.saying("error.gzip_corrupt", name=p.name, detail=str(exc)) from exc
    if _only_nuls(inner, whole=len(inner) < SNIFF_BYTES):  # an empty tar, or nothing
        raise BundleError.saying("error.no_log_text", name=p.name)
    if _looks_like_tar(inner):
        return "gzip-tar"
    if looks_like_text(inner):
        return "gzip-log"
    raise BundleError.saying("error.gzip_neither", name=p.name)


def _sniff_zstd(p: Path, head: bytes) -> str:
    """Only a zstd-compressed tar is a bundle; a lone `.log.zst` is refused by name."""
    if _looks_like_tar(_zstd_head(head)):
        return "zstd-tar"
    raise BundleError.saying("error.zstd_not_tar", name=p.name)


def _sniff_packed(p: Path, head: bytes, packer: str) -> str:
    """A bzip2 or xz file is read as a tar; one whose start inflates to text (a lone
    `rank0.log.xz`) is refused saying so, not later as a corrupt archive. A start that
    inflates to nothing yet (a bzip2 block is up to 900 kB) or to noise (damaged data) is left
    to the tar reader, which names the damage."""
    inflater = bz2.BZ2Decompressor() if packer == "bzip2" else lzma.LZMADecompressor()
    try:
        inner = inflater.decompress(head, SNIFF_BYTES)  # a bounded window, as for zstd
    except (OSError, EOFError, lzma.LZMAError):
        inner = b""  # damaged: the tar reader says so with the archive's own error
    if inner and not _looks_like_tar(inner) and looks_like_text(inner):
        raise BundleError.saying("error.compressed_not_tar", name=p.name, format=packer)
    return f"{packer}-tar"


# Archive formats seen in uploads that are not read here, by their first six bytes.
_ARCHIVES_NOT_READ = {b"7z\xbc\xaf\x27\x1c": "kind.7z", b"Rar!\x1a\x07": "kind.rar"}


def _zstd_head(head: bytes) -> bytes:
    """The first bytes a zstd stream's start inflates to (b"" when they do not inflate)."""
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(head), read_across_frames=True)
    try:
        return reader.read(SNIFF_BYTES)  # a bounded window: a few KB of zstd can stand for GBs
    except zstandard.ZstdError:
        return b""


def _only_nuls(data: bytes, *, whole: bool) -> bool:
    """`data` is a whole file of NULs or of nothing: what `tar` writes for no files (two or
    more zero blocks, padded to its record), or a gzip of an empty file. A longer file may
    hold text past its first run of NULs (a crashed writer's), so only a whole one counts."""
    return whole and not data.strip(b"\0")


def _nuls_to_the_end(path: Path) -> int | None:
    """The file's size when every byte of it is NUL (an empty tar, a log preallocated and
    never written), else None; read in chunks to the first other byte, so a NUL-only log of
    any length is named as such, not refused as no bundle."""
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(NUL_CHUNK):
            if chunk.strip(b"\0"):
                return None
            size += len(chunk)
    return size


NUL_CHUNK = 1024 * 1024


def _looks_like_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"


def looks_like_text(head: bytes, slack: int = 0) -> bool:
    """Logs may carry odd bytes (ANSI, a NUL, Latin-1); binaries are mostly control bytes.

    A run of NULs counts as one odd byte: a writer that crashed leaves one such run in its
    log (a preallocated or cut file), while a binary's NULs sit among its other control
    bytes, which still count. `slack` odd bytes more are allowed whatever the length: in a
    file of a few dozen bytes one stray byte is already past the hundredth."""
    if starts_utf16(head):  # a Windows tool's log: its NULs are half of each character
        sample = head[:8192].decode("utf-16", "replace").encode("utf-8", "replace")
    else:
        sample = _NUL_RUN.sub(b"\0", head[:8192])
    control = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13, 27))
    return control <= len(sample) // 100 + slack


_NUL_RUN = re.compile(rb"\0{2,}")


# What a bundle's name promises, longest ending first; a kind is named by the phrasebook's
# `kind.<kind>` entry.
_NAMED_KINDS = (
    (".tar.gz", ("gzip-tar",), "gzip-tar"),
    (".tgz", ("gzip-tar",), "gzip-tar"),
    (".tar.bz2", ("bzip2-tar",), "bzip2-tar"),
    (".tar.xz", ("xz-tar",), "xz-tar"),
    (".tar.zst", ("zstd-tar",), "zstd-tar"),
    (".tzst", ("zstd-tar",), "zstd-tar"),
    (".tar", ("tar",), "tar"),
    (".zip", ("zip",), "zip"),
    (".gz", ("gzip-log", "gzip-tar"), "gzip"),
    (".log", ("log",), "log"),
    (".txt", ("log",), "log"),
)


def mislabel_warning(path: str | os.PathLike[str], kind: str) -> Said | None:
    """A warning when the file's name promises another kind than its bytes hold."""
    name = Path(path).name
    for ending, kinds, promised in _NAMED_KINDS:
        if name.lower().endswith(ending):
            if kind in kinds:
                return None
            return say(
                "bundle.mislabelled",
                name=name,
                promised=say(f"kind.{promised}"),
                kind=kind_name(kind),
            )
    return None


def kind_name(kind: str) -> Said:
    """What a sniffed kind is, in words (`gzip-tar`: "a gzip-compressed tar archive")."""
    return say(f"kind.{kind}")


def kind_from_head(head: bytes) -> str | None:
    """What the first bytes of a member named like an archive hold (None: no archive)."""
    if head.startswith(b"\x1f\x8b"):
        try:
            inner = zlib.decompressobj(31).decompress(head, 1024)
        except zlib.error:
            return None
        return "gzip-tar" if _looks_like_tar(inner) else None
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.startswith(b"BZh"):
        return "bzip2-tar"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz-tar"
    if head.startswith(ZSTD_MAGIC):
        return "zstd-tar" if _looks_like_tar(_zstd_head(head)) else None
    return "tar" if _looks_like_tar(head) else None
