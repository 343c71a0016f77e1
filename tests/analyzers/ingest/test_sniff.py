"""A bundle is read as what its bytes say; a name that says otherwise earns a warning."""

import bz2
import gzip
import io
import lzma
import tracemalloc
import zipfile

import pytest
import zstandard

from analyzers.core.errors import BundleError
from analyzers.ingest.bundle import Bundle
from analyzers.ingest.sniff import kind_from_head, mislabel_warning, sniff_kind
from tests.analyzers import hostile


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("rank0.log", hostile.ERROR_LOG)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "kind", "warning"),
    [
        (
            "job.tar.gz",
            "zip",
            "job.tar.gz is named like a gzip-compressed tar archive but is a zip",
        ),
        ("job.zip", "gzip-tar", "job.zip is named like a zip archive but is a gzip-compressed tar"),
        ("job.tgz", "tar", "job.tgz is named like a gzip-compressed tar archive but is a tar"),
        ("rank0.log", "gzip-log", "rank0.log is named like a plain text log but is a gzip"),
        ("job.tar.gz", "gzip-tar", None),
        ("rank0.log.gz", "gzip-log", None),
        ("job.tar.zst", "zstd-tar", None),
        ("job.tzst", "zstd-tar", None),
        ("job.tar.zst", "gzip-tar", "job.tar.zst is named like a zstd-compressed tar archive"),
        ("upload", "tar", None),  # no promise, nothing to warn about
    ],
)
def test_mislabel_warning(name, kind, warning):
    found = mislabel_warning(name, kind)

    assert found == warning if warning is None else found.en.startswith(warning)


def test_a_mislabel_warning_is_said_in_chinese_too():
    found = mislabel_warning("job.tar.gz", "zip")

    assert found.en == (
        "job.tar.gz is named like a gzip-compressed tar archive but is a zip archive: read as such"
    )
    assert found.zh == (
        "job.tar.gz 的文件名表明它是“gzip 压缩的 tar 归档”，实际内容却是“zip 归档”：已按实际内容读取"
    )


def test_a_zip_named_tar_gz_is_read_as_a_zip_with_a_warning(tmp_path):
    bundle = Bundle(hostile.zip_named_tgz(tmp_path / "job.tar.gz"))

    assert [member.path for member in bundle.members()] == ["rank0.log"]
    assert "but is a zip archive: read as such" in bundle.warnings[0]


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (gzip.compress(hostile.tar_bytes([("a.log", b"x\n")])), "gzip-tar"),
        (gzip.compress(b"just a log\n"), None),
        (hostile.tar_bytes([("a.log", b"x\n")]), "tar"),
        (_zip(), "zip"),
        (zstandard.ZstdCompressor().compress(hostile.tar_bytes([("a.log", b"x\n")])), "zstd-tar"),
        (b"plain text", None),
    ],
)
def test_kind_from_head(head, kind):
    assert kind_from_head(head) == kind


def test_a_corrupt_gzip_is_refused_when_sniffed(tmp_path):
    with pytest.raises(BundleError, match="the gzip data is corrupt"):
        Bundle(hostile.corrupt_deflate(tmp_path / "c.tar.gz", at=40))


def test_a_log_with_a_crashed_writers_nul_padding_is_a_log(tmp_path):
    """A writer killed mid-file leaves a run of NULs; the single log is still a log."""
    data = hostile.ERROR_LOG + b"\0" * 6000 + hostile.ERROR_LOG
    assert sniff_kind(hostile.write(tmp_path / "rank0.log", data)) == "log"


def test_a_binary_with_runs_of_nuls_is_refused(tmp_path):
    data = b"\x7fELF\x02\x01\x01" + b"\0" * 4000 + bytes(range(256)) * 8
    with pytest.raises(BundleError, match="not a log bundle"):
        sniff_kind(hostile.write(tmp_path / "upload.bin", data))


def _zipped_nothing() -> bytes:
    buf = io.BytesIO()
    zipfile.ZipFile(buf, "w").close()
    return buf.getvalue()


NO_LOG_TEXT = ": the bundle holds no log text: it lists no files, or only folders and empty files"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("job.tar.gz", gzip.compress(hostile.tar_bytes([]))),
        ("job.zip", _zipped_nothing()),
        ("rank0.log.gz", gzip.compress(b"")),
    ],
    ids=["empty tar.gz", "empty zip", "gzip of nothing"],
)
def test_an_empty_archive_is_refused_as_holding_no_log_text(tmp_path, name, data):
    with pytest.raises(BundleError) as refused:
        sniff_kind(hostile.write(tmp_path / name, data))
    assert str(refused.value) == name + NO_LOG_TEXT


def test_a_zstd_tar_is_sniffed_from_its_bytes_whatever_its_name(tmp_path):
    path = tmp_path / "upload.bin"
    path.write_bytes(zstandard.ZstdCompressor().compress(hostile.tar_bytes([("a.log", b"x\n")])))

    assert sniff_kind(path) == "zstd-tar"


def test_sniffing_a_zstd_bomb_inflates_only_the_bytes_it_looks_at(tmp_path):
    """A few kilobytes of zstd can stand for gigabytes; the sniff reads one window of them."""
    head = hostile.zstd_bomb(tmp_path / "b.tar.zst", 128 * hostile.MiB).read_bytes()[:65536]

    tracemalloc.start()
    try:
        kind = kind_from_head(head)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert kind == "zstd-tar"
    assert peak < 8 * hostile.MiB


@pytest.mark.parametrize(
    ("name", "packed", "words"),
    [
        ("rank0.log.xz", lzma.compress(hostile.ERROR_LOG), "xz data that holds no tar archive"),
        ("rank0.log.bz2", bz2.compress(hostile.ERROR_LOG), "bzip2 data that holds no tar archive"),
    ],
    ids=["xz", "bzip2"],
)
def test_a_single_log_compressed_other_than_with_gzip_is_refused_saying_so(
    tmp_path, name, packed, words
):
    """Not "the archive is corrupt": the file is whole, it just holds no tar."""
    with pytest.raises(BundleError, match=words) as refusal:
        sniff_kind(hostile.write(tmp_path / name, packed))
    assert "gzip" in str(refusal.value)  # what to upload instead


@pytest.mark.parametrize(
    ("name", "head", "words"),
    [
        ("logs.7z", b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(200), "a 7-Zip archive"),
        ("logs.rar", b"Rar!\x1a\x07\x01\x00" + bytes(200), "a RAR archive"),
    ],
    ids=["7z", "rar"],
)
def test_an_archive_format_that_is_not_read_is_named_in_the_refusal(tmp_path, name, head, words):
    with pytest.raises(BundleError, match=words) as refusal:
        sniff_kind(hostile.write(tmp_path / name, head))
    assert ".tar.gz" in str(refusal.value)


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("job.tar", 10240),  # `tar -cf job.tar --files-from /dev/null`
        ("rank0.log", 4096),
        ("rank0.log", 3 * 1024 * 1024 + 5),  # longer than the first bytes sniffed
    ],
    ids=["empty tar", "short NUL log", "long NUL log"],
)
def test_a_file_of_nuls_only_holds_no_log_text_and_says_what_it_holds(tmp_path, name, size):
    with pytest.raises(BundleError) as refused:
        sniff_kind(hostile.write(tmp_path / name, b"\0" * size))

    assert str(refused.value) == (
        f"{name}: the bundle holds no log text: its {size:,} bytes are all NUL bytes "
        "(a tar archive of no files, or a log its writer never filled)"
    )


def test_a_log_that_starts_with_a_long_run_of_nuls_is_not_taken_for_nuls_only(tmp_path):
    path = hostile.write(tmp_path / "rank0.log", b"\0" * 70000 + b"[rank0] step 3 done\n")

    with pytest.raises(BundleError, match="not a log bundle"):
        sniff_kind(path)
