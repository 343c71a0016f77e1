"""Files whose lines end in a lone carriage return are read line by line, like any other."""

import io

import pytest

from analyzers.ingest import bare_cr
from analyzers.ingest.bare_cr import BareCrLines, starts_with_bare_cr_lines


def read_all(data: bytes, size: int = 5) -> bytes:
    stream = BareCrLines(io.BytesIO(data))
    out = b""
    while chunk := stream.read(size):
        assert len(chunk) <= size
        out += chunk
    return out


def test_a_classic_mac_file_becomes_lines():
    data = b"[rank1] step 3 done\r[rank1] RuntimeError: NPU out of memory\r"
    assert read_all(data) == b"[rank1] step 3 done\n[rank1] RuntimeError: NPU out of memory\n"


@pytest.mark.parametrize(
    "data",
    [
        b"plain\nlines\n",
        b"windows\r\nlines\r\n",
        b"epoch 1\n 10%|#  |\r 20%|## |\r 30%|###|\ndone\n",
        b"one line that ends with a carriage return\r",
    ],
    ids=["unix", "crlf", "progress bar between lines", "single line"],
)
def test_files_with_line_feeds_pass_untouched(data):
    assert not starts_with_bare_cr_lines(data)
    assert read_all(data) == data


def test_a_crlf_pair_split_between_reads_is_one_line_end(monkeypatch):
    monkeypatch.setattr(bare_cr, "PROBE_BYTES", 4)
    # the first four bytes decide; a later CRLF pair falls across a read boundary
    assert read_all(b"ab\rcdef\r\ngh\r", size=3) == b"ab\ncdef\ngh\n"


def test_reading_everything_at_once():
    assert BareCrLines(io.BytesIO(b"a\rb\rc")).read() == b"a\nb\nc"
