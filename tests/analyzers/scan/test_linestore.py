"""The line store gives the log viewer any line of a huge member without rereading it."""

import io

import pytest

from analyzers.scan import linestore
from analyzers.scan.linestore import LineStoreReader, LineStoreWriter, TeeReader


def _store(tmp_path, data: bytes, chunk: int = 7777, marks=None):
    writer = LineStoreWriter(tmp_path, "job/log_0.log")
    with TeeReader(io.BytesIO(data), writer) as tee:
        while tee.read(chunk):
            pass
    writer.close(marks)
    return LineStoreReader(tmp_path, "job/log_0.log")


def test_reads_any_window_of_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(linestore, "BLOCK_BYTES", 1000)
    data = b"".join(b"line %d\n" % n for n in range(1, 5001))
    reader = _store(tmp_path, data)
    assert reader.total_lines == 5000
    assert reader.lines(1, 2) == [(1, "line 1"), (2, "line 2")]
    assert reader.lines(2999, 3) == [(2999, "line 2999"), (3000, "line 3000"), (3001, "line 3001")]
    assert reader.lines(4999, 10) == [(4999, "line 4999"), (5000, "line 5000")]


def test_last_line_without_newline_and_bad_bytes(tmp_path):
    reader = _store(tmp_path, b"ok\n\xff\xfe bad\r\nlast")
    assert reader.lines(1, 10) == [(1, "ok"), (2, "\ufffd\ufffd bad"), (3, "last")]


def test_marks_are_kept(tmp_path):
    reader = _store(tmp_path, b"a\nb\n", marks={"error": [2]})
    assert reader.marks == {"error": [2]}


def test_missing_member_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        LineStoreReader(tmp_path, "nope.log")


def test_one_huge_line_keeps_later_line_numbers(tmp_path, monkeypatch):
    monkeypatch.setattr(linestore, "BLOCK_BYTES", 100)
    data = b"first\n" + b"x" * 1000 + b"\nthird\n"
    reader = _store(tmp_path, data, chunk=50)
    assert reader.total_lines == 3
    assert reader.lines(3, 1) == [(3, "third")]
    assert reader.lines(2, 1) == [(2, "x" * 1000)]


@pytest.mark.parametrize(
    ("data", "lines"),
    [(b"first\nsecond\n", [(1, "first"), (2, "second")]), (b"", [])],
    ids=["small file", "empty file"],
)
def test_a_small_file_is_kept_in_its_index_alone(tmp_path, data, lines):
    writer = LineStoreWriter(tmp_path, "tiny.log")
    writer.write(data)
    writer.close()

    assert [p.suffix for p in tmp_path.iterdir()] == [".json"]
    assert LineStoreReader(tmp_path, "tiny.log").lines(1, 10) == lines
