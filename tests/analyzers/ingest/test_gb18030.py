"""Logs written in GBK or GB18030 (a Chinese Windows collector, a shell in a zh_CN.GBK
locale) are read as their text, so their Chinese error lines are searched like any other."""

import io

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.ingest import gb18030
from analyzers.ingest.gb18030 import Gb18030Text, looks_like_gb18030
from tests.analyzers import hostile

TEXT = "[rank1] step 3 done\n./run.sh: 第 19 行：40213 段错误 (核心已转储) python train.py\n"


def read_all(data: bytes, size: int = 5) -> bytes:
    stream = Gb18030Text(io.BytesIO(data))
    out = b""
    while chunk := stream.read(size):
        assert len(chunk) <= size
        out += chunk
    return out


@pytest.mark.parametrize("encoding", ["gbk", "gb18030"])
def test_a_gbk_log_is_read_as_utf8(encoding, monkeypatch):
    monkeypatch.setattr(gb18030, "DECODE_CHUNK", 7)  # odd pieces split characters
    assert read_all(TEXT.encode(encoding)) == TEXT.encode()


@pytest.mark.parametrize(
    "data",
    [
        b"plain ascii\nlines\n",
        TEXT.encode("utf-8"),
        "Fehler: Datei für Müller nicht gefunden, café\n".encode("latin-1"),
        b"\xff\xfe\xfd broken bytes \x80\n",
        b"",
    ],
    ids=["ascii", "utf-8 chinese", "latin-1", "binary noise", "empty"],
)
def test_other_files_pass_untouched(data):
    assert read_all(data) == data


def test_a_file_is_judged_at_its_first_non_ascii_bytes():
    """A long English head does not hide the Chinese crash report at the log's end."""
    data = b"INFO step 1\n" * 10_000 + TEXT.encode("gbk")
    assert read_all(data, size=4096) == b"INFO step 1\n" * 10_000 + TEXT.encode()


@pytest.mark.parametrize(
    ("text", "encoding", "expected"),
    [
        ("段错误（核心已转储）", "gbk", True),
        ("显存不足 out of memory", "gb18030", True),
        ("段错误（核心已转储）", "utf-8", False),
        ("für Müller", "latin-1", False),
        ("plain", "ascii", False),
    ],
)
def test_looks_like_gb18030(text, encoding, expected):
    assert looks_like_gb18030(text.encode(encoding)) is expected


def test_the_chinese_crash_line_in_a_gbk_rank_log_is_found(tmp_path):
    log = ("[rank1] INFO step 3 loss 1.25\n" * 3 + TEXT).encode("gbk")
    bundle = hostile.write(tmp_path / "job.tar", hostile.tar_bytes([("rank1.log", log)]))

    report = analyze(bundle, AnalyzeOptions(workers=1))

    first = report.diagnosis.first_error
    assert first is not None
    assert "段错误" in first.text
