"""Binary members of a bundle are told from logs by their first block and skipped, listed."""

import gzip
import io
import random
import struct
import tarfile
import zlib
from pathlib import Path

import pytest

from analyzers.core.errors import BundleError
from analyzers.core.types import SkippedFile
from analyzers.ingest.binary_member import HeadFirst, binary_kind, read_head
from analyzers.ingest.bundle import Bundle

LOG = b"2026-11-29 07:25:37,216 [rank0] ERROR RuntimeError: boom\n"


def _png() -> bytes:
    """A real 64x64 PNG: signature, IHDR, a deflated IDAT of noise, IEND."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    noise = random.Random(3).randbytes(64 * 193)
    ihdr = struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(noise))
        + chunk(b"IEND", b"")
    )


def _core() -> bytes:
    """What a core dump or a `.so` starts with: an ELF header, then mostly NULs and tables."""
    header = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack("<HHI", 4, 0x3E, 1)
    return header + b"\0" * 4000 + bytes(range(256)) * 16


def _safetensors() -> bytes:
    """A safetensors file: its header is JSON text, so only its shape tells it apart."""
    header = b'{"__metadata__":{"format":"pt"},' + b'"w":{"dtype":"F16","shape":[8]}}' * 300
    return struct.pack("<Q", len(header)) + header + random.Random(1).randbytes(4096)


CRASHED = LOG * 40 + b"\0" * 20000  # a writer killed mid-write leaves its preallocated NULs
UTF16 = ("\ufeff" + "[rank0] RuntimeError: NPU out of memory, 显存不足\r\n" * 50).encode(
    "utf-16-le"
)
LATIN1 = "[rank0] Température élevée: 93°C, arrêt du noeud\n".encode("latin-1") * 100
GB18030 = "[rank0] 错误：设备内存不足\n".encode("gb18030") * 100
ANSI = b"\x1b[31m[rank0] ERROR boom\x1b[0m\r\n" * 100


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (_png(), "png"),
        (_core(), "elf"),
        (_safetensors(), "safetensors"),
        (b"PK\x03\x04\x14\0\0\0\0\0" + b"archive/data.pkl" + bytes(range(256)), "zip"),
        (b"PERFILE2" + b"\0" * 100 + bytes(range(256)), "perf"),
        (random.Random(2).randbytes(8192), "other"),
    ],
    ids=["png", "core dump", "safetensors", "torch checkpoint", "perf data", "noise"],
)
def test_a_binary_first_block_is_named(data, kind):
    assert binary_kind(data[:8192]) == kind


TEXTS = {
    "log": LOG * 200,
    "NUL-padded crash": CRASHED,
    "short crash": b"step 1\n\0\0\0",
    "stray bytes": b"\x1f\x8b odd\n",
    "NULs only": b"\0" * 8192,
    "UTF-16": UTF16,
    "Latin-1": LATIN1,
    "GB18030": GB18030,
    "ANSI": ANSI,
    "empty": b"",
}


@pytest.mark.parametrize("data", TEXTS.values(), ids=TEXTS.keys())
def test_a_log_first_block_stays_text(data):
    assert binary_kind(data[:8192]) is None


def test_the_first_block_is_handed_back_before_the_rest():
    raw = io.BytesIO(LOG * 500)
    head = read_head(raw, 100)

    stream = HeadFirst(head, raw)

    assert stream.read(30) + stream.read() == LOG * 500


def _tar(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _read(bundle: Bundle) -> dict[str, bytes]:
    out = {}
    for member in bundle.members():
        with member.open() as fh:
            out[member.path] = fh.read()
    return out


def test_binary_members_are_skipped_and_listed_with_why(tmp_path):
    members = {
        "plots/loss.png": _png(),
        "rank0.log": CRASHED,
        "core.4711": _core(),
        "dump.gz": gzip.compress(random.Random(5).randbytes(20000)),  # inflates to noise
        "rank1.log": UTF16,
    }
    bundle = Bundle(_tar(tmp_path / "job.tar.gz", members))

    read = _read(bundle)

    assert read == {"rank0.log": CRASHED, "rank1.log": UTF16}
    listed = [(at, f.path, f.skipped) for at, f in bundle.binary]
    assert listed == [
        (0, "plots/loss.png", "binary, not log text: a PNG image"),
        (1, "core.4711", "binary, not log text: an ELF file (a program, a library or a core dump)"),
        (1, "dump.gz", "binary, not log text: its first bytes are mostly control bytes"),
    ]
    assert all(isinstance(f, SkippedFile) and f.skipped_zh for _, f in bundle.binary)
    assert "skipped 'plots/loss.png': binary, not log text: a PNG image" in bundle.warnings
    bundle.check_holds_text()  # logs were read


def test_a_gzip_member_under_a_plain_name_is_judged_by_what_it_inflates_to(tmp_path):
    members = {"weights.bin": gzip.compress(_core()), "rank0.log": gzip.compress(LOG)}
    bundle = Bundle(_tar(tmp_path / "job.tar.gz", members))

    assert _read(bundle) == {"rank0.log": LOG}
    assert [f.path for _, f in bundle.binary] == ["weights.bin"]


def test_a_bundle_of_binaries_only_holds_no_log_text_and_says_how_many(tmp_path):
    bundle = Bundle(_tar(tmp_path / "plots.tar.gz", {"a.png": _png(), "b.png": _png()}))
    _read(bundle)

    with pytest.raises(BundleError) as refused:
        bundle.check_holds_text()

    assert str(refused.value) == (
        "plots.tar.gz: the bundle holds no log text: 2 of its files were skipped as binary "
        "(skipped 'a.png': binary, not log text: a PNG image)"
    )
    assert "2 个文件是二进制内容" in refused.value.zh


def test_binaries_beside_unsafe_members_name_both(tmp_path):
    bundle = Bundle(_tar(tmp_path / "job.tar.gz", {"a.png": _png(), "/etc/rank0.log": LOG}))
    _read(bundle)

    with pytest.raises(BundleError, match=r"1 of its files were skipped as binary .* and 1 for"):
        bundle.check_holds_text()
