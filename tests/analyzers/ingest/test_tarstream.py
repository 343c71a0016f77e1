"""The tar stream reader agrees with `tarfile` on what real archives hold."""

import io
import tarfile

import pytest

from analyzers.core.phrases import Said
from analyzers.ingest.tarstream import TarStream


def _archive(members: dict[str, bytes], fmt: int = tarfile.GNU_FORMAT) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=fmt) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _read(raw: bytes, chunk: int = 7) -> dict[str, bytes]:
    stream = TarStream(io.BytesIO(raw))
    out = {}
    for entry in stream:
        reader, parts = stream.open(), []
        while part := reader.read(chunk):
            parts.append(part)
        out[entry.name] = b"".join(parts)
    return out


@pytest.mark.parametrize("fmt", [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
def test_reads_every_member_in_each_format(fmt):
    members = {"job/log_0.log": b"a\n" * 700, "job/empty.log": b"", "job/env.txt": b"RANK=1\n"}
    assert _read(_archive(members, fmt)) == members


@pytest.mark.parametrize("fmt", [tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
def test_long_and_non_ascii_names(fmt):
    name = "job/" + "节点-" * 40 + "/log_0.log"
    assert _read(_archive({name: b"x\n"}, fmt)) == {name: b"x\n"}


def test_a_member_left_unread_is_skipped_with_its_padding():
    raw = _archive({"a.log": b"1" * 1000, "b.log": b"2" * 10})
    stream = TarStream(io.BytesIO(raw))
    names = [entry.name for entry in stream]  # never opened
    assert names == ["a.log", "b.log"]


def test_a_cut_archive_is_an_error_not_a_short_member():
    raw = _archive({"a.log": b"1" * 5000})
    with pytest.raises(tarfile.ReadError, match="unexpected end"):
        _read(raw[:2048])


def test_a_damaged_header_is_an_error():
    raw = bytearray(_archive({"a.log": b"1" * 10}))
    raw[148:156] = b"9999999\0"  # the checksum field
    with pytest.raises(tarfile.TarError):
        _read(bytes(raw))


@pytest.mark.parametrize("size", ["-500", "12ab", "x999"])
def test_a_pax_size_that_is_no_number_is_a_tar_error(size):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo("a.log")
        info.size = 3
        info.pax_headers = {"comment": "x"}
        tar.addfile(info, io.BytesIO(b"abc"))
    # same length as the record it replaces, so the record's length field stays right
    raw = buffer.getvalue().replace(b"comment=x", b"size=" + size.encode())
    with pytest.raises(tarfile.ReadError, match="malformed pax size"):
        _read(raw)


def test_a_header_over_the_cap_is_skipped_and_reported(tmp_path):
    from tests.analyzers import hostile

    data = hostile.tar_bytes([("a" * 4096, b"log\n"), ("b.log", b"b\n")])
    cuts: list[Said] = []

    entries = TarStream(io.BytesIO(data), max_header=1024, on_cut=cuts.append)
    names = [entry.name for entry in entries]

    assert names[1] == "b.log"
    assert len(names[0]) == 100  # the ustar name field: the pax path was not read
    assert "header size limit" in cuts[0].en
    assert "头部大小限制" in cuts[0].zh
