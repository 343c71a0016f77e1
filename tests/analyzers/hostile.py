"""Builders of hostile bundles, written into a test's tmp dir (nothing big is committed).

Each returns the path of a file that is small on disk and hostile when read: bombs that
inflate hundreds of MB, archives nested twenty deep, names no URL can carry, numbers no
`int()` takes. The tests feed them to the analyzer and check what it reports.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import struct
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

import zstandard

MiB = 1024 * 1024
ERROR_LOG = b"2026-11-29 07:25:37,216 [rank0] ERROR RuntimeError: boom\n"


def tar_bytes(files: Iterable[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def zeros_tar(size: int, name: str = "rank0.log") -> Iterable[bytes]:
    """A tar of one member of `size` zero bytes, in pieces (never all in memory)."""
    info = tarfile.TarInfo(name)
    info.size = size
    yield info.tobuf(tarfile.USTAR_FORMAT)
    piece = b"\0" * MiB
    for _ in range(size // MiB):
        yield piece
    yield b"\0" * (size % MiB + (-size % 512) + 1024)


def gzip_bomb(path: Path, size: int) -> Path:
    with gzip.open(path, "wb", compresslevel=9) as out:
        for piece in zeros_tar(size):
            out.write(piece)
    return path


def bz2_bomb(path: Path, size: int) -> Path:
    with bz2.open(path, "wb", compresslevel=9) as out:
        for piece in zeros_tar(size):
            out.write(piece)
    return path


def xz_bomb(path: Path, size: int) -> Path:
    with lzma.open(path, "wb", preset=1) as out:
        for piece in zeros_tar(size):
            out.write(piece)
    return path


def zstd_bomb(path: Path, size: int) -> Path:
    with path.open("wb") as raw, zstandard.ZstdCompressor(level=3).stream_writer(raw) as out:
        for piece in zeros_tar(size):
            out.write(piece)
    return path


def zip_bomb(path: Path, size: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf, zf.open("rank0.log", "w") as out:
        piece = b"\0" * MiB
        for _ in range(size // MiB):
            out.write(piece)
    return path


def nested(path: Path, depth: int) -> Path:
    """`depth` tar.gz archives, each inside the next, the innermost holding a log."""
    data = tar_bytes([("rank0.log", ERROR_LOG)])
    for level in range(depth):
        data = gzip.compress(tar_bytes([(f"level{level}.tar.gz", data)]))
    return write(path, data)


def many_members(path: Path, count: int) -> Path:
    return write(path, gzip.compress(tar_bytes((f"f{i}.log", b"x\n") for i in range(count))))


def huge_pax_header(path: Path, size: int) -> Path:
    """A pax header whose path record is `size` bytes long, then a small log."""
    return write(path, tar_bytes([("a" * size, ERROR_LOG)]))


def corrupt_deflate(path: Path, at: int) -> Path:
    """A .tar.gz of ~1 MiB of random log text whose deflate stream is damaged at `at`."""
    text = b"".join(b"INFO %s\n" % os.urandom(32).hex().encode() for _ in range(16_000))
    data = bytearray(gzip.compress(tar_bytes([("rank0.log", text)])))
    data[at : at + 20] = b"\xff" * 20
    return write(path, bytes(data))


def overlapping_zip(path: Path) -> Path:
    """Two zip entries that share their data (the trick behind non-recursive zip bombs)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.log", ERROR_LOG * 100)
        zf.writestr("b.log", ERROR_LOG * 100)
    data = bytearray(buf.getvalue())
    central = data.rfind(b"PK\x01\x02")  # the second entry's directory record
    struct.pack_into("<I", data, central + 42, 0)  # ...now points at the first entry's data
    return write(path, bytes(data))


def named(path: Path, names: Iterable[str]) -> Path:
    """A tar whose members carry the given names (undecodable bytes as surrogates)."""
    return write(path, tar_bytes((name, ERROR_LOG) for name in names))


def zip_named_tgz(path: Path) -> Path:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("rank0.log", ERROR_LOG)
    return write(path, buf.getvalue())
