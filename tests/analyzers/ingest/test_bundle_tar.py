"""Tar archives inside the bundle are read in place, down to the nesting limit."""

import gzip
import io
import tarfile
import time
import zipfile
from datetime import datetime

from analyzers.core.limits import Limits
from analyzers.ingest.bundle import Bundle, open_member
from tests.analyzers import hostile


def _paths(bundle: Bundle) -> list[str]:
    return [member.path for member in bundle.members()]


def test_files_of_an_inner_archive_are_read_under_its_name(tmp_path):
    inner = gzip.compress(hostile.tar_bytes([("rank3.log", hostile.ERROR_LOG)]))
    outer = hostile.tar_bytes([("node1.tar.gz", inner), ("launcher.log", b"ok\n")])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    assert _paths(bundle) == ["node1.tar.gz/rank3.log", "launcher.log"]
    assert bundle.limit_hits() == []


def test_the_inner_files_content_streams_through(tmp_path):
    inner = hostile.tar_bytes([("rank3.log", hostile.ERROR_LOG)])
    outer = hostile.tar_bytes([("node1.tar", inner)])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    member = next(bundle.members())  # a member is readable while the iteration is on it
    with member.open() as stream:
        assert stream.read() == hostile.ERROR_LOG


def test_archives_nested_past_the_limit_are_not_opened(tmp_path):
    bundle = Bundle(hostile.nested(tmp_path / "n.tar.gz", 20), limits=Limits(depth=3))

    assert _paths(bundle) == []
    (hit,) = bundle.limit_hits()
    assert hit.limit == "depth"
    assert "level19.tar.gz/level18.tar.gz/level17.tar.gz/level16.tar.gz" in hit.message


def test_archives_within_the_limit_are_all_opened(tmp_path):
    bundle = Bundle(hostile.nested(tmp_path / "n.tar.gz", 3), limits=Limits(depth=3))

    assert _paths(bundle) == ["level2.tar.gz/level1.tar.gz/level0.tar.gz/rank0.log"]


def test_a_member_named_like_an_archive_that_is_none_is_read_as_a_file(tmp_path):
    outer = hostile.tar_bytes([("notes.tar.gz", hostile.ERROR_LOG)])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    member = next(bundle.members())  # a member is readable while the iteration is on it
    with member.open() as stream:
        assert (member.path, stream.read()) == ("notes.tar.gz", hostile.ERROR_LOG)


def test_a_zip_inside_a_tar_is_read_under_its_name(tmp_path):
    # a node's logs zipped on their own, the zips packed into one tar.gz
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("node1/log_6.log", hostile.ERROR_LOG)
        zf.writestr("node1/launch.log", b"node 1: rank 6 (pid 25687) exited with code -9\n")
    outer = hostile.tar_bytes([("job/node1.zip", buf.getvalue()), ("job/env.txt", b"A=1\n")])
    bundle = Bundle(hostile.write(tmp_path / "job.tar.gz", gzip.compress(outer)), limits=Limits())

    read = {}
    for member in bundle.members():
        with member.open() as stream:
            read[member.path] = stream.read()

    assert read == {
        "job/node1.zip/node1/log_6.log": hostile.ERROR_LOG,
        "job/node1.zip/node1/launch.log": b"node 1: rank 6 (pid 25687) exited with code -9\n",
        "job/env.txt": b"A=1\n",
    }
    assert bundle.warnings == []


def test_a_zip_inside_a_tar_counts_against_the_depth_limit(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("rank0.log", hostile.ERROR_LOG)
    inner = hostile.tar_bytes([("node0.zip", buf.getvalue())])
    outer = hostile.tar_bytes([("level1.tar", inner)])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits(depth=1))

    assert _paths(bundle) == []
    (hit,) = bundle.limit_hits()
    assert hit.limit == "depth"


def test_a_zip_inside_a_tar_without_its_directory_is_named_in_a_warning(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("rank0.log", hostile.ERROR_LOG)
    cut = buf.getvalue()[: len(buf.getvalue()) // 2]  # copied off before the upload ended
    outer = hostile.tar_bytes([("node0.zip", cut), ("launcher.log", b"ok\n")])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    assert _paths(bundle) == ["launcher.log"]
    assert bundle.warnings == ["skipped 'node0.zip': its zip directory cannot be read"]


def test_a_members_modification_time_comes_with_it(tmp_path):
    """A file's time as the archiver recorded it: the year of a log that never wrote one."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo("job/log_1.log")
        info.size, info.mtime = len(hostile.ERROR_LOG), 1796400000  # 2026-12-04
        tar.addfile(info, io.BytesIO(hostile.ERROR_LOG))
    bundle = Bundle(hostile.write(tmp_path / "job.tar", buffer.getvalue()), limits=Limits())

    [member] = bundle.members()
    assert member.modified == 1796400000


def test_a_zip_members_recorded_time_comes_with_it(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr(zipfile.ZipInfo("log_0.log", date_time=(2026, 12, 4, 15, 27, 30)), b"ok\n")
    bundle = Bundle(hostile.write(tmp_path / "job.zip", buffer.getvalue()), limits=Limits())

    [member] = bundle.members()
    assert datetime.fromtimestamp(member.modified).year == 2026


def test_a_gzipped_rank_log_is_read_as_the_log_it_holds(tmp_path):
    # collectors compress each rank's log on its own: `log_5.log.gz` next to `launcher.log`
    line = b"model run failed: shape '[-1, 3, 11]' is invalid for input of size 256\n"
    outer = hostile.tar_bytes([("job-874813b2/log_5.log.gz", gzip.compress(line))])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    member = next(bundle.members())  # a member is readable while the iteration is on it
    with member.open() as stream:
        assert (member.path, stream.read()) == ("job-874813b2/log_5.log.gz", line)


def test_a_gz_member_that_holds_a_tar_is_opened_as_an_archive(tmp_path):
    inner = gzip.compress(hostile.tar_bytes([("rank3.log", hostile.ERROR_LOG)]))
    outer = hostile.tar_bytes([("node1.gz", inner)])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    assert _paths(bundle) == ["node1.gz/rank3.log"]


def _read_all(bundle: Bundle) -> dict[str, int]:
    sizes = {}
    for member in bundle.members():
        with member.open() as stream:
            sizes[member.path] = len(stream.read())
    return sizes


def test_a_gzip_bomb_shipped_as_one_gz_member_meets_the_ratio_limit(tmp_path):
    """A `.gz` rank log is inflated by the reader itself, past the outer archive's meter:
    its bytes are counted too, or a tar of one bomb would read terabytes."""
    bomb = gzip.compress(b"\n" * (4 * 1024 * 1024), 9)  # 4 MiB from about 4 KiB
    outer = hostile.tar_bytes([("rank0.log.gz", bomb), ("rank1.log", b"ok\n")])
    limits = Limits(ratio=100, ratio_grace=64 * 1024)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=limits)

    sizes = _read_all(bundle)

    assert sizes["rank0.log.gz"] < 4 * 1024 * 1024
    assert [hit.limit for hit in bundle.limit_hits()] == ["ratio"]


def test_a_gz_members_inflated_bytes_count_toward_the_total(tmp_path):
    log = b"".join(b"INFO step %d\n" % i for i in range(200_000))  # ~2.7 MB, packs ~20:1
    outer = hostile.tar_bytes([("rank0.log.gz", gzip.compress(log))])
    bundle = Bundle(
        hostile.write(tmp_path / "job.tar", outer), limits=Limits(total_bytes=hostile.MiB)
    )

    sizes = _read_all(bundle)

    assert sizes["rank0.log.gz"] < hostile.MiB
    assert [hit.limit for hit in bundle.limit_hits()] == ["total_bytes"]


def test_a_gz_member_within_the_budgets_is_read_whole(tmp_path):
    log = b"".join(b"INFO step %d\n" % i for i in range(200_000))
    outer = hostile.tar_bytes([("rank0.log.gz", gzip.compress(log))])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    assert _read_all(bundle) == {"rank0.log.gz": len(log)}
    assert bundle.limit_hits() == []


def _zip(path, members: dict[str, bytes]):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def test_a_zip_bundle_opens_the_tars_and_gzipped_logs_it_holds(tmp_path):
    inner = gzip.compress(hostile.tar_bytes([("rank3.log", hostile.ERROR_LOG)]))
    gzipped = gzip.compress(hostile.ERROR_LOG)
    zipped = {"job/node1.tar.gz": inner, "job/log_0.log.gz": gzipped, "job/env.txt": b"A=1\n"}
    bundle = Bundle(_zip(tmp_path / "job.zip", zipped), limits=Limits())

    read = {}
    for member in bundle.members():
        with member.open() as stream:
            read[member.path] = stream.read()

    assert read == {
        "job/node1.tar.gz/rank3.log": hostile.ERROR_LOG,
        "job/log_0.log.gz": hostile.ERROR_LOG,
        "job/env.txt": b"A=1\n",
    }


def test_a_folder_opens_the_tars_and_gzipped_logs_it_holds(tmp_path):
    folder = tmp_path / "job"
    (folder / "node0").mkdir(parents=True)
    (folder / "node1.tar.gz").write_bytes(
        gzip.compress(hostile.tar_bytes([("rank3.log", hostile.ERROR_LOG)]))
    )
    (folder / "node0" / "log_0.log.gz").write_bytes(gzip.compress(hostile.ERROR_LOG))
    bundle = Bundle(folder, limits=Limits())

    read = {}
    for member in bundle.members():
        with member.open() as stream:
            read[member.path] = stream.read()

    assert read == {
        "node0/log_0.log.gz": hostile.ERROR_LOG,
        "node1.tar.gz/rank3.log": hostile.ERROR_LOG,
    }


def test_a_zip_inside_a_zip_is_read_under_its_name(tmp_path):
    inner = _zip(tmp_path / "inner.zip", {"rank0.log": hostile.ERROR_LOG}).read_bytes()
    bundle = Bundle(_zip(tmp_path / "job.zip", {"node1.zip": inner}), limits=Limits())

    assert _paths(bundle) == ["node1.zip/rank0.log"]
    assert bundle.warnings == []


def test_a_path_the_tar_holds_twice_is_read_twice_under_two_names(tmp_path):
    data = hostile.tar_bytes([("a.log", b"one\n"), ("a.log", b"two\n"), ("a.log (copy 2)", b"3\n")])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", data), limits=Limits())

    assert _paths(bundle) == ["a.log", "a.log (copy 2)", "a.log (copy 2) (copy 2)"]
    assert len(bundle.warnings) == 2
    with open_member(tmp_path / "job.tar", "a.log (copy 2)") as stream:
        assert stream.read() == b"two\n"


def test_copy_numbers_skip_the_names_the_tar_holds_itself(tmp_path):
    members = [("a.log", b"1\n"), ("a.log (copy 3)", b"x\n"), ("a.log", b"2\n")]
    members += [("a.log", b"3\n"), ("a.log", b"4\n")]
    bundle = Bundle(hostile.write(tmp_path / "job.tar", hostile.tar_bytes(members)), Limits())

    assert _paths(bundle) == [
        "a.log",
        "a.log (copy 3)",
        "a.log (copy 2)",
        "a.log (copy 4)",
        "a.log (copy 5)",
    ]


def test_a_path_held_20000_times_is_named_in_linear_time(tmp_path):
    # `tar -r` in a loop, or a hostile bundle: each copy once looked for its number from 2 up
    data = hostile.tar_bytes([("rank0.log", b"x\n")] * 20_000)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", data), limits=Limits())

    started = time.process_time()
    paths = _paths(bundle)
    elapsed = time.process_time() - started

    assert paths[-1] == "rank0.log (copy 20000)"
    assert elapsed < 10  # about 1 s; 58 s when the search started from 2 for every copy


def _node_zip(size: int, method: int = zipfile.ZIP_STORED) -> bytes:
    """A node's logs zipped on their own: two rank logs of `size` bytes in all."""
    line = b"2026-11-29 07:25:37,216 [rank6] INFO step 1 | loss 0.3 | tokens/s 18233\n"
    log = line * (size // 2 // len(line))
    logs = {"node1/log_6.log": log, "node1/log_7.log": log + b"\n" * (size - 2 * len(log))}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in logs.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_a_zip_inside_a_tar_whose_content_fits_the_total_is_read_whole(tmp_path):
    """Stored entries make the zip as large as what it holds: its bytes and its content
    together are twice the content, which still fits once."""
    content = hostile.MiB - 32 * 1024
    outer = hostile.tar_bytes([("job/node1.zip", _node_zip(content))])
    limits = Limits(total_bytes=hostile.MiB)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=limits)

    sizes = _read_all(bundle)

    assert sum(sizes.values()) == content
    assert bundle.limit_hits() == []


def test_a_zip_inside_a_tar_larger_than_the_total_is_cut_with_the_limit_stated(tmp_path):
    outer = hostile.tar_bytes([("job/node1.zip", _node_zip(hostile.MiB + 32 * 1024))])
    limits = Limits(total_bytes=hostile.MiB)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=limits)

    assert _read_all(bundle) == {}
    assert bundle.warnings == []  # its directory was never reached: the limit says why
    [hit] = bundle.limit_hits()
    assert (hit.limit, hit.message) == (
        "total_bytes",
        "read 1.0 MiB of an archive that holds more: size limit (RANKLENS_LIMIT_TOTAL_BYTES)",
    )


def test_a_small_zip_inside_a_tar_whose_content_is_over_the_total_is_cut(tmp_path):
    outer = hostile.tar_bytes([("job/node1.zip", _node_zip(2 * hostile.MiB, zipfile.ZIP_DEFLATED))])
    limits = Limits(total_bytes=hostile.MiB)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=limits)

    sizes = _read_all(bundle)

    assert hostile.MiB - 64 * 1024 < sum(sizes.values()) < hostile.MiB
    [hit] = bundle.limit_hits()
    assert (hit.limit, hit.message) == (
        "total_bytes",
        "read 1.0 MiB of an archive that claims 2.0 MiB: size limit (RANKLENS_LIMIT_TOTAL_BYTES)",
    )


def test_a_zip_inside_a_tar_whose_entries_are_not_read_still_counts_its_own_bytes(tmp_path):
    """A zip of links only: nothing of it is inflated, yet its bytes were read from the
    bundle, so a bundle of such zips still stops at the total."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        link = zipfile.ZipInfo("node1/latest.log")
        link.external_attr = 0o120777 << 16
        zf.writestr(link, b"x" * (700 * 1024))
    log = b"2026-11-29 07:25:37,216 [rank0] INFO step 1\n" * 12_000  # ~530 KiB
    outer = hostile.tar_bytes([("job/node1.zip", buf.getvalue()), ("job/log_0.log", log)])
    limits = Limits(total_bytes=hostile.MiB)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=limits)

    sizes = _read_all(bundle)

    assert sizes["job/log_0.log"] < len(log)
    assert [hit.limit for hit in bundle.limit_hits()] == ["total_bytes"]


def _rank_log(size: int) -> bytes:
    """A rank log of `size` bytes that packs about 10:1, as logs do."""
    lines = (
        b"2026-11-29 07:25:37,%03d [rank0] INFO step %d | loss 0.3\n" % (n % 1000, n)
        for n in range(size)
    )
    return b"".join(lines)[:size]


def test_a_tar_gz_inside_the_bundle_whose_content_fits_the_total_is_read_whole(tmp_path):
    """Its compressed bytes are charged as the outer tar is read, then handed back as they
    inflate: the inner archive counts once, not about a tenth more than it holds."""
    log = _rank_log(hostile.MiB - 32 * 1024)
    inner = gzip.compress(hostile.tar_bytes([("log_0.log", log)]))
    outer = hostile.tar_bytes([("job/node0.tar.gz", inner)])
    bundle = Bundle(
        hostile.write(tmp_path / "job.tar", outer), limits=Limits(total_bytes=hostile.MiB)
    )

    assert _read_all(bundle) == {"job/node0.tar.gz/log_0.log": len(log)}
    assert bundle.limit_hits() == []


def test_a_tar_gz_inside_the_bundle_larger_than_the_total_is_cut_at_the_total(tmp_path):
    log = _rank_log(2 * hostile.MiB)
    inner = gzip.compress(hostile.tar_bytes([("log_0.log", log)]))
    outer = hostile.tar_bytes([("job/node0.tar.gz", inner), ("job/log_1.log", log)])
    bundle = Bundle(
        hostile.write(tmp_path / "job.tar", outer), limits=Limits(total_bytes=hostile.MiB)
    )

    sizes = _read_all(bundle)

    assert hostile.MiB - 64 * 1024 < sum(sizes.values()) <= hostile.MiB
    assert [hit.limit for hit in bundle.limit_hits()] == ["total_bytes"]


def test_a_gz_member_whose_content_fits_the_total_is_read_whole(tmp_path):
    log = _rank_log(hostile.MiB - 32 * 1024)
    outer = hostile.tar_bytes([("job/log_0.log.gz", gzip.compress(log))])
    bundle = Bundle(
        hostile.write(tmp_path / "job.tar", outer), limits=Limits(total_bytes=hostile.MiB)
    )

    assert _read_all(bundle) == {"job/log_0.log.gz": len(log)}
    assert bundle.limit_hits() == []


def test_a_rank_log_gzipped_under_its_plain_name_is_read_as_the_log_it_holds(tmp_path):
    # a collector that ran `gzip -c rank1.log > out/rank1.log`: the name still says text
    outer = hostile.tar_bytes([("rank1.log", gzip.compress(hostile.ERROR_LOG))])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    assert _contents(bundle) == {"rank1.log": hostile.ERROR_LOG}


def test_a_gzip_bomb_under_a_plain_name_meets_the_ratio_limit(tmp_path):
    bomb = gzip.compress(b"\n" * (4 * 1024 * 1024), 9)
    outer = hostile.tar_bytes([("rank0.log", bomb), ("rank1.log", b"ok\n")])
    limits = Limits(ratio=100, ratio_grace=64 * 1024)
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=limits)

    sizes = _read_all(bundle)

    assert sizes["rank0.log"] < 4 * 1024 * 1024
    assert [hit.limit for hit in bundle.limit_hits()] == ["ratio"]


def test_a_plain_file_that_only_starts_like_gzip_is_read_as_it_is(tmp_path):
    data = b"\x1f\x8b not deflate at all\nRuntimeError: boom\n"
    outer = hostile.tar_bytes([("rank0.log", data)])
    bundle = Bundle(hostile.write(tmp_path / "job.tar", outer), limits=Limits())

    assert _contents(bundle) == {"rank0.log": data}


def _contents(bundle: Bundle) -> dict[str, bytes]:
    contents = {}
    for member in bundle.members():
        with member.open() as stream:
            contents[member.path] = stream.read()
    return contents
