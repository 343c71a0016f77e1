"""Logs a Windows tool wrote in UTF-16 (with its byte-order mark) are read as their text."""

import codecs
import gzip
import io

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.ingest import utf16
from analyzers.ingest.sniff import sniff_kind
from analyzers.ingest.utf16 import Utf16Text, starts_utf16
from tests.analyzers import hostile

TEXT = "[rank0] step 3 done\r\n[rank0] RuntimeError: NPU out of memory, 显存不足\r\n"


def read_all(data: bytes, size: int = 5) -> bytes:
    stream = Utf16Text(io.BytesIO(data))
    out = b""
    while chunk := stream.read(size):
        assert len(chunk) <= size
        out += chunk
    return out


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_log_is_read_as_utf8_without_its_mark(encoding, monkeypatch):
    monkeypatch.setattr(utf16, "DECODE_CHUNK", 7)  # odd pieces split characters
    data = ("\ufeff" + TEXT).encode(encoding)
    assert read_all(data) == TEXT.encode()


@pytest.mark.parametrize(
    "data",
    [b"plain\nlines\n", b"\xff", b"", b"\xff\xfe\x00\x00utf-32", TEXT.encode("utf-16-le")],
    ids=["utf-8", "one byte", "empty", "utf-32 mark", "utf-16 without a mark"],
)
def test_other_files_pass_untouched(data):
    assert read_all(data) == data


def test_other_files_keep_the_raw_streams_reads():
    """The scanner's block boundaries follow the reads: they must not move."""

    class Chunks(io.RawIOBase):
        def __init__(self):
            self.pieces = [b"abc\n", b"defgh\n", b"i\n"]

        def readable(self):
            return True

        def read(self, size=-1):
            return self.pieces.pop(0) if self.pieces else b""

    stream = Utf16Text(Chunks())  # type: ignore[arg-type]
    assert [stream.read(100) for _ in range(4)] == [b"abc\n", b"defgh\n", b"i\n", b""]


def test_an_odd_last_byte_becomes_a_replacement_character():
    data = codecs.BOM_UTF16_LE + "ok\n".encode("utf-16-le") + b"x"
    assert read_all(data) == "ok\n\ufffd".encode()


def test_starts_utf16():
    assert starts_utf16(codecs.BOM_UTF16_LE + b"a\x00")
    assert starts_utf16(codecs.BOM_UTF16_BE + b"\x00a")
    assert not starts_utf16(codecs.BOM_UTF32_LE)
    assert not starts_utf16(b"plain")


@pytest.mark.parametrize("name", ["job.log", "job.log.gz"])
def test_a_single_utf16_log_is_accepted_as_a_log(tmp_path, name):
    data = ("\ufeff" + TEXT).encode("utf-16-le")
    path = hostile.write(tmp_path / name, gzip.compress(data) if name.endswith(".gz") else data)
    assert sniff_kind(path) == ("gzip-log" if name.endswith(".gz") else "log")


def test_the_error_in_a_utf16_rank_log_is_found(tmp_path):
    log = ("\ufeff" + hostile.ERROR_LOG.decode()).encode("utf-16-le")
    bundle = hostile.write(tmp_path / "job.tar", hostile.tar_bytes([("rank0.log", log)]))

    report = analyze(bundle, AnalyzeOptions(workers=1))

    first = report.diagnosis.first_error
    assert first is not None
    assert "RuntimeError: boom" in first.text
    assert report.bundle.files[0].lines == 1
