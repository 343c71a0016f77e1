"""A zip's central directory is checked whole, entry by entry, in bounded memory.

A zip is read through the list of members at its end: one cut short in transfer starts like
any zip and failed only when its analysis opened it. The upload checks it first.
"""

from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from analyzers.core.errors import BundleError
from analyzers.ingest.zip_directory import check_zip_directory


def zip_bytes(count: int = 3, **options) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, **options) as zf:
        for rank in range(count):
            zf.writestr(f"job/rank{rank}.log", f"rank {rank} | layer 3 passed\n" * 50)
    return buf.getvalue()


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
    ],
)
def test_a_whole_zip_passes(tmp_path, data):
    path = written(tmp_path, data)

    check_zip_directory(path)

    assert zipfile.ZipFile(path).testzip() is None  # what the analysis will read


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
    ],
)
def test_a_damaged_zip_is_refused_naming_what_is_wrong(tmp_path, damage, message):
    path = written(tmp_path, damage(zip_bytes()))

    with pytest.raises(BundleError) as error:
        check_zip_directory(path)

    assert str(error.value).startswith(message)


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
