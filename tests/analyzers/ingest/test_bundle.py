"""The bundle reader streams members and refuses to trust what is inside the archive."""

import gzip
import io
import pickle
import random
import tarfile
import zipfile
from pathlib import Path

import pytest
import zstandard

from analyzers.core.errors import BundleError
from analyzers.core.limits import Limits
from analyzers.core.phrases import refilled
from analyzers.ingest.bundle import (
    Bundle,
    file_sha256,
    normalise_member_path,
    open_member,
    sniff_kind,
    unsafe_reason,
)
from tests.analyzers import hostile
from tests.corpus_path import CORPUS as SHARED_CORPUS

CORPUS = SHARED_CORPUS
LOG_LINE = b"2026-11-29 07:24:28,507 [rank2] INFO layer 0 passed\n"


def _tar(path: Path, members: dict[str, bytes], mode: str = "w:gz") -> Path:
    with tarfile.open(path, mode) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _zstd_tar(path: Path, members: dict[str, bytes]) -> Path:
    """What `tar --zstd -cf` writes: a plain tar in one zstd stream."""
    plain = _tar(path.with_suffix(".plain"), members, "w")
    path.write_bytes(zstandard.ZstdCompressor().compress(plain.read_bytes()))
    return path


def _read_all(path: Path) -> dict[str, bytes]:
    bundle = Bundle(path)
    out = {}
    for member in bundle.members():
        with member.open() as fh:
            out[member.path] = fh.read()
    return out


def test_reads_every_member_of_a_real_torchrun_bundle():
    members = _read_all(CORPUS / "torch" / "killed_rank.tar.gz")
    assert "job-7d5d4e8f/launcher.log" in members
    assert any(p.endswith("attempt_0/1/stderr.log") for p in members)
    assert b"exitcode: -11" in members["job-7d5d4e8f/launcher.log"]


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_reads_tar_in_every_compression(tmp_path, mode):
    path = _tar(tmp_path / "b.tar", {"job/log_0.log": LOG_LINE}, mode)
    assert _read_all(path) == {"job/log_0.log": LOG_LINE}


def test_reads_a_zstd_compressed_tar(tmp_path):
    path = _zstd_tar(tmp_path / "b.tar.zst", {"job/log_0.log": LOG_LINE})
    assert _read_all(path) == {"job/log_0.log": LOG_LINE}


def test_opens_a_zstd_compressed_tar_inside_the_bundle(tmp_path):
    inner = _zstd_tar(tmp_path / "node1.tar.zst", {"node1/log_1.log": LOG_LINE})
    path = _tar(tmp_path / "b.tar.gz", {"job/node1.tar.zst": inner.read_bytes()})
    assert _read_all(path) == {"job/node1.tar.zst/node1/log_1.log": LOG_LINE}


def test_reads_zip(tmp_path):
    path = tmp_path / "b.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("job/log_1.log", LOG_LINE)
    assert _read_all(path) == {"job/log_1.log": LOG_LINE}


def test_reads_single_log_and_single_gzip_log(tmp_path):
    plain = tmp_path / "worker.log"
    plain.write_bytes(LOG_LINE)
    packed = tmp_path / "worker.log.gz"
    packed.write_bytes(gzip.compress(LOG_LINE))
    assert _read_all(plain) == {"worker.log": LOG_LINE}
    assert _read_all(packed) == {"worker.log": LOG_LINE}


def test_unsafe_members_are_skipped_with_a_warning(tmp_path):
    path = tmp_path / "evil.tar"
    with tarfile.open(path, "w") as tar:
        for name in ["/etc/passwd", "../escape.log", "job/ok.log"]:
            info = tarfile.TarInfo(name)
            info.size = len(LOG_LINE)
            tar.addfile(info, io.BytesIO(LOG_LINE))
        link = tarfile.TarInfo("job/link.log")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/shadow"
        tar.addfile(link)
        dev = tarfile.TarInfo("job/null")
        dev.type = tarfile.CHRTYPE
        tar.addfile(dev)
    bundle = Bundle(path)
    assert [m.path for m in bundle.members()] == ["job/ok.log"]
    warnings = " ".join(bundle.warnings)
    assert "absolute path" in warnings
    assert "'..'" in warnings
    assert "symbolic link" in warnings
    assert "device" in warnings
    assert bundle.warnings_zh == [
        "已跳过 '/etc/passwd'：使用了绝对路径",
        "已跳过 '../escape.log'：路径跳出了日志包（'..'）",
        "已跳过 'job/link.log'：符号链接不会被读取",
        "已跳过 'job/null'：设备文件不会被读取",
    ]


def test_warnings_past_the_kept_number_are_counted_in_both_languages(tmp_path, monkeypatch):
    monkeypatch.setattr("analyzers.ingest.bundle.MAX_WARNINGS", 1)
    path = tmp_path / "links.tar"
    with tarfile.open(path, "w") as tar:
        for number in range(3):
            link = tarfile.TarInfo(f"job/link{number}.log")
            link.type, link.linkname = tarfile.SYMTYPE, "log_0.log"
            tar.addfile(link)
    bundle = Bundle(path)
    list(bundle.members())

    *kept, counted = bundle.all_warnings()

    assert [warning.en for warning in kept] == [
        "skipped 'job/link0.log': symbolic link members are not read"
    ]
    assert (counted.en, counted.zh) == (
        "... and 2 more warnings like these",
        "……另有 2 条类似的警告",
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "not a log bundle"),
        (b"\x1f\x8b\x08\x00garbage", "corrupt"),
    ],
    ids=["empty", "png", "broken-gzip"],
)
def test_non_bundles_are_refused_with_a_clear_message(tmp_path, content, message):
    path = tmp_path / "upload.bin"
    path.write_bytes(content)
    with pytest.raises(BundleError, match=message):
        sniff_kind(path)


def test_truncated_archive_raises_bundle_error(tmp_path):
    full = _tar(tmp_path / "full.tar.gz", {"job/log_0.log": LOG_LINE * 20000})
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    with pytest.raises(BundleError, match="corrupt or truncated") as refused:
        _read_all(cut)
    assert "job/log_0.log：归档已损坏或不完整（" in refused.value.zh


def test_a_refusal_stored_in_english_is_re_filled_in_chinese(tmp_path):
    path = tmp_path / "upload.bin"
    path.write_bytes(b"")
    with pytest.raises(BundleError) as refused:
        sniff_kind(path)

    assert str(refused.value) == "upload.bin: the file is empty"
    assert refilled(str(refused.value), "error.") == "upload.bin：文件是空的" == refused.value.zh


def test_a_refusal_from_a_scanner_process_keeps_both_languages():
    refusal = BundleError.saying("error.empty", name="rank0.log")

    crossed = pickle.loads(pickle.dumps(refusal))

    assert (str(crossed), crossed.zh) == ("rank0.log: the file is empty", "rank0.log：文件是空的")


def test_open_member_finds_one_file(tmp_path):
    path = _tar(tmp_path / "b.tgz", {"a/log_0.log": b"zero\n", "a/log_1.log": b"one\n"})
    with open_member(path, "a/log_1.log") as fh:
        assert fh.read() == b"one\n"
    with pytest.raises(BundleError), open_member(path, "a/log_9.log"):
        pass


@pytest.mark.parametrize(
    ("name", "english", "chinese"),
    [
        ("job/log_0.log", None, None),
        ("./job/log_0.log", None, None),
        ("/abs/log", "absolute path", "使用了绝对路径"),
        ("C:\\logs\\x.log", "absolute path", "使用了绝对路径"),
        ("job/../../x", "path escapes the bundle ('..')", "路径跳出了日志包（'..'）"),
        ("", "the name holds no file name", "名称中没有文件名"),
        ("./", "the name holds no file name", "名称中没有文件名"),
    ],
)
def test_unsafe_reason(name, english, chinese):
    reason = unsafe_reason(name)

    assert (reason.en, reason.zh) == (english, chinese) if reason else english is None


def test_member_paths_are_normalised():
    assert normalise_member_path("./job//rank_3/./log.txt") == "job/rank_3/log.txt"


def test_reading_one_big_log_reports_progress_along_the_way(tmp_path):
    path = tmp_path / "rank0.log"
    path.write_bytes(LOG_LINE * 400_000)  # about 21 MB
    seen: list[float] = []
    bundle = Bundle(path, on_progress=seen.append)
    for member in bundle.members():
        with member.open() as fh:
            while fh.read(1024 * 1024):
                pass
    assert len(seen) >= 2
    assert seen == sorted(seen)
    assert 0 < seen[0] < seen[-1] <= 1


@pytest.mark.parametrize("kind", ["tar.gz", "tar", "log", "log.gz", "zip"])
def test_the_bundle_hash_is_the_file_hash_whatever_the_kind(tmp_path, kind):
    data = LOG_LINE * 1000
    path = tmp_path / f"bundle.{kind}"
    if kind.startswith("tar"):
        _tar(path, {"job/log_0.log": data}, "w:gz" if kind == "tar.gz" else "w")
    elif kind == "zip":
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("job/log_0.log", data)
    else:
        path.write_bytes(gzip.compress(data) if kind == "log.gz" else data)
    bundle = Bundle(path)
    _ = [m.path for m in bundle.members()]  # read through, as the pipeline does

    assert bundle.sha256() == file_sha256(path)


def test_corrupt_deflate_data_raises_bundle_error(tmp_path):
    full = _tar(tmp_path / "full.tar.gz", {"job/log_0.log": LOG_LINE * 20000}).read_bytes()
    broken = tmp_path / "broken.tar.gz"
    middle = len(full) // 2
    broken.write_bytes(full[:middle] + b"\xff" * 64 + full[middle + 64 :])
    with pytest.raises(BundleError, match="corrupt or truncated"):
        _read_all(broken)


@pytest.mark.parametrize("fmt", [tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
def test_long_member_names_survive_streaming(tmp_path, fmt):
    deep = "job/" + "/".join(f"node-{i}-with-a-long-folder-name" for i in range(6)) + "/log_7.log"
    path = tmp_path / "deep.tar.gz"
    with tarfile.open(path, "w:gz", format=fmt) as tar:
        info = tarfile.TarInfo(deep)
        info.size = len(LOG_LINE)
        tar.addfile(info, io.BytesIO(LOG_LINE))
    assert _read_all(path) == {deep: LOG_LINE}


@pytest.mark.parametrize("mode", ["w:gz", "w:bz2", "w:xz"])
def test_damaged_compressed_data_raises_bundle_error(tmp_path, mode):
    noisy = bytes(range(256)) * 4000  # incompressible enough that the damage lands in data
    full = _tar(tmp_path / "full.tar", {"job/log_0.log": noisy}, mode).read_bytes()
    middle = len(full) // 2
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(full[:middle] + bytes(b ^ 0xFF for b in full[middle : middle + 256]))
    with pytest.raises(BundleError, match="corrupt or truncated"):
        _read_all(damaged)


def test_damaged_zstd_data_raises_bundle_error(tmp_path):
    noisy = random.Random(7).randbytes(1_000_000)  # incompressible: the damage lands in data
    full = _zstd_tar(tmp_path / "full.tar.zst", {"job/log_0.log": noisy}).read_bytes()
    middle = len(full) // 2
    damaged = tmp_path / "damaged.tar.zst"
    damaged.write_bytes(full[:middle] + bytes(b ^ 0xFF for b in full[middle : middle + 256]))
    with pytest.raises(BundleError, match="corrupt or truncated"):
        _read_all(damaged)


def test_links_and_devices_in_a_tar_are_skipped_with_their_kind_named(tmp_path):
    path = tmp_path / "links.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        link = tarfile.TarInfo("job/latest.log")
        link.type, link.linkname = tarfile.SYMTYPE, "log_0.log"
        tar.addfile(link)
        fifo = tarfile.TarInfo("job/pipe")
        fifo.type = tarfile.FIFOTYPE
        tar.addfile(fifo)
        info = tarfile.TarInfo("job/log_0.log")
        info.size = len(LOG_LINE)
        tar.addfile(info, io.BytesIO(LOG_LINE))
    bundle = Bundle(path)
    assert [m.path for m in bundle.members()] == ["job/log_0.log"]
    assert any("symbolic link" in w for w in bundle.warnings)
    assert any("FIFO" in w for w in bundle.warnings)
    assert "已跳过 'job/pipe'：FIFO（命名管道）不会被读取" in bundle.warnings_zh


def _read_every_member(bundle: Bundle) -> None:
    for member in bundle.members():
        with member.open() as stream:
            while stream.read(1 << 20):
                pass


def test_corruption_deep_in_a_deflate_stream_is_a_bundle_error(tmp_path):
    bundle = Bundle(hostile.corrupt_deflate(tmp_path / "c.tar.gz", at=300_000))

    with pytest.raises(BundleError, match="corrupt or truncated"):
        _read_every_member(bundle)


def test_a_zip_with_overlapping_entries_is_a_bundle_error(tmp_path):
    bundle = Bundle(hostile.overlapping_zip(tmp_path / "o.zip"))

    with pytest.raises(BundleError, match=r"b\.log: the archive is corrupt"):
        _read_every_member(bundle)


def test_member_names_are_escaped_so_they_can_be_stored_and_linked(tmp_path):
    names = ["two\nlines.log", "bad\udcff.log"]

    bundle = Bundle(hostile.named(tmp_path / "names.tar", names))

    assert [m.path for m in bundle.members()] == ["two\\x0alines.log", "bad\\xff.log"]


def test_a_zip_listing_far_more_entries_than_are_read_is_refused_before_its_directory(tmp_path):
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(50):
            zf.writestr(f"f{i}.log", b"x\n")

    with pytest.raises(BundleError, match="a zip of 50 entries; at most 40"):
        list(Bundle(path, limits=Limits(members=10)).members())


def test_a_member_whose_name_is_empty_is_skipped(tmp_path):
    files = [(".", hostile.ERROR_LOG), ("rank1.log", LOG_LINE)]
    bundle = Bundle(hostile.write(tmp_path / "job.tar", hostile.tar_bytes(files)))

    assert [member.path for member in bundle.members()] == ["rank1.log"]
    assert bundle.warnings == ["skipped '.': the name holds no file name"]
