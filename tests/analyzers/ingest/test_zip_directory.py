"""A zip's central directory is checked whole, entry by entry, in bounded memory.

A zip is read through the list of members at its end: one cut short in transfer starts like
any zip and failed only when its analysis opened it. The upload checks it first.
"""

from __future__ import annotations

import io
import os
import struct
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from analyzers.core.errors import BundleError
from analyzers.ingest.zip_directory import check_zip_directory


def zip_bytes(count: int = 3, **options) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", **{"compression": zipfile.ZIP_DEFLATED, **options}) as zf:
        for rank in range(count):
            zf.writestr(f"job/rank{rank}.log", f"rank {rank} | layer 3 passed\n" * 50)
    return buf.getvalue()


def zip_with_comment(comment: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("job/rank0.log", "rank 0 | layer 3 passed\n")
        zf.comment = comment
    return buf.getvalue()


class _Pipe(io.RawIOBase):
    """A stream that cannot seek back, as a zip written to a pipe: each member's sizes
    follow its data in a data descriptor."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, chunk) -> int:
        self.data += chunk
        return len(chunk)


def streamed_zip() -> bytes:
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", zipfile.ZIP_DEFLATED) as zf:
        for rank in range(2):
            with zf.open(f"job/rank{rank}.log", "w") as member:
                member.write(b"rank 0 | layer 3 passed\n")
    assert pipe.data[6] & 0x08  # the first member's flag: sizes in a data descriptor
    return bytes(pipe.data)


def written(tmp_path: Path, data: bytes, name: str = "job.zip") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def directory_start(data: bytes) -> int:
    end = data.rindex(b"PK\x05\x06")
    return struct.unpack("<I", data[end + 16 : end + 20])[0]


def damaged_entry_signature(data: bytes) -> bytes:
    second = data.index(b"PK\x01\x02", directory_start(data) + 4)
    return data[:second] + b"XX\x01\x02" + data[second + 4 :]


def damaged_local_header(data: bytes) -> bytes:
    second = data.index(b"PK\x03\x04", 4)
    return data[:second] + b"\0\0\0\0" + data[second + 4 :]


def first_entry(data: bytes) -> int:
    return data.index(b"PK\x01\x02", directory_start(data))


def name_not_utf8(data: bytes) -> bytes:
    """The first entry says its name is UTF-8 (flag bit 11), but its bytes are not."""
    at = first_entry(data)
    (flags,) = struct.unpack_from("<H", data, at + 8)
    name = at + 46
    return (
        data[: at + 8]
        + struct.pack("<H", flags | 0x800)
        + data[at + 10 : name]
        + b"\xff\xfe"
        + data[name + 2 :]
    )


def needs_a_newer_zip_version(data: bytes) -> bytes:
    """The first entry needs version 6.4 to extract, past what zipfile reads (6.3)."""
    at = first_entry(data) + 6
    return data[:at] + bytes([64]) + data[at + 1 :]


def extra_field_overruns_itself(data: bytes) -> bytes:
    """The first entry's 4-byte extra field announces 200 bytes of data."""
    at = first_entry(data)
    return data[:at] + data[at:].replace(b"UT\x05\x00", b"UT\xc8\x00", 1)


def every_entry_points_at_the_first_member(data: bytes) -> bytes:
    """Entries that overlap: all of them name the first member's header as their own."""
    start = directory_start(data)
    out = bytearray(data)
    at = start
    while (at := data.find(b"PK\x01\x02", at)) >= 0:
        struct.pack_into("<I", out, at + 42, 0)
        at += 4
    return bytes(out)


def directory_larger_than_the_file(data: bytes) -> bytes:
    end = data.rindex(b"PK\x05\x06")
    return data[: end + 12] + struct.pack("<I", 0xFFFFFF00) + data[end + 16 :]


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(zip_bytes(), id="plain"),
        pytest.param(zip_bytes(0), id="empty-zip"),
        pytest.param(b"#!/bin/sh\nexit 0\n" + zip_bytes(), id="prepended-stub"),
        pytest.param(zip_bytes(allowZip64=True), id="zip64-allowed"),
        pytest.param(os.urandom(4096) + zip_bytes(), id="appended-to-another-file"),
        pytest.param(zip_with_comment(b"nightly run 1187 " * 3800), id="long-archive-comment"),
        pytest.param(streamed_zip(), id="data-descriptors"),
        pytest.param(zip_bytes(compression=zipfile.ZIP_STORED), id="stored"),
    ],
)
def test_a_whole_zip_passes(tmp_path, data):
    path = written(tmp_path, data)

    check_zip_directory(path)

    assert zipfile.ZipFile(path).testzip() is None  # what the analysis will read


def test_a_zip64_directory_of_more_than_65535_entries_behind_a_stub_passes(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for number in range(65_600):
            zf.writestr(f"job/part-{number:05d}.log", b"")
    data = b"MZ" + bytes(4094) + buf.getvalue()
    assert b"PK\x06\x06" in data[-200:]  # a zip64 end record: the count needs 64 bits
    path = written(tmp_path, data)

    check_zip_directory(path)

    assert len(zipfile.ZipFile(path).infolist()) == 65_600


def test_a_zip64_directory_passes(tmp_path):
    buf = io.BytesIO()
    with (
        zipfile.ZipFile(buf, "w") as zf,
        zf.open("job/rank0.log", "w", force_zip64=True) as member,
    ):
        member.write(b"rank 0 | layer 3 passed\n")
    path = written(tmp_path, buf.getvalue())

    check_zip_directory(path)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        pytest.param(
            lambda data: data[: len(data) * 2 // 3],
            "job.zip: the zip has no central directory (the list of its members at its end)",
            id="cut-short",
        ),
        pytest.param(
            lambda data: data[:-30],
            "job.zip: the zip has no central directory (the list of its members at its end)",
            id="end-record-cut",
        ),
        pytest.param(
            damaged_entry_signature,
            "job.zip: the zip's central directory is damaged (entry 2 of 3 is no directory entry)",
            id="entry-signature",
        ),
        pytest.param(
            damaged_local_header,
            "job.zip: the zip's central directory is damaged ('job/rank1.log' points at no "
            "member's data)",
            id="local-header",
        ),
        pytest.param(
            directory_larger_than_the_file,
            "job.zip: the zip's central directory is damaged (it would start before the file does)",
            id="directory-size",
        ),
        pytest.param(
            name_not_utf8,
            "job.zip: the zip's central directory is damaged (entry 1 of 3 says its name is UTF-8 "
            "but it is not)",
            id="name-not-utf8",
        ),
        pytest.param(
            needs_a_newer_zip_version,
            "job.zip: the zip's central directory is damaged ('job/rank0.log' needs zip version "
            "6.4 to extract; 6.3 is read)",
            id="zip-version",
        ),
        pytest.param(
            every_entry_points_at_the_first_member,
            "job.zip: the zip's central directory is damaged ('job/rank1.log' points at the "
            "data of 'job/rank0.log')",
            id="overlapping-entries",
        ),
    ],
)
def test_a_damaged_zip_is_refused_naming_what_is_wrong(tmp_path, damage, message):
    path = written(tmp_path, damage(zip_bytes()))

    with pytest.raises(BundleError) as error:
        check_zip_directory(path)

    assert str(error.value).startswith(message)


def test_an_extra_field_longer_than_its_entry_is_refused(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        info = zipfile.ZipInfo("job/rank0.log")
        info.extra = b"UT\x05\x00\x01\x00\x00\x00\x00"
        zf.writestr(info, b"rank 0 | layer 3 passed\n")
    path = written(tmp_path, extra_field_overruns_itself(buf.getvalue()))

    with pytest.raises(BundleError) as error:
        check_zip_directory(path)

    assert "('job/rank0.log' has an extra field longer than its entry)" in str(error.value)


def test_the_refusal_says_what_to_do_in_both_languages(tmp_path):
    path = written(tmp_path, zip_bytes()[:200])

    with pytest.raises(BundleError) as error:
        check_zip_directory(path)

    assert str(error.value).endswith("cut short or damaged: pack it or copy it again")
    assert "中央目录" in error.value.zh


def test_a_big_directory_is_walked_in_bounded_memory(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for number in range(20_000):
            zf.writestr(f"job/part-{number:05d}/rank{number % 8}.log", b"")
    path = written(tmp_path, buf.getvalue())
    assert path.stat().st_size > 2_000_000

    tracemalloc.start()
    try:
        check_zip_directory(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert peak < 100_000  # zipfile's own list of these 20,000 entries takes about 11 MB
