"""Scanning on several processes: same answers as one process, and no hang when one dies."""

import gzip
import io
import os
import tarfile

import pytest

from analyzers.ingest.bundle import Bundle
from analyzers.scan import scanner as scanner_process
from analyzers.scan.parallel import ScanSettings, scan_members

LINE = b"2026-11-29 07:24:28,507 [rank%d] INFO layer %d passed\n"


def _bundle(tmp_path, ranks: int = 4, lines: int = 20_000):
    path = tmp_path / "job.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for rank in range(ranks):
            data = b"".join(LINE % (rank, n % 8) for n in range(lines))  # > 256 KiB each
            info = tarfile.TarInfo(f"job/log_{rank}.log")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _packed_bundle(tmp_path, lines: int):
    """A collector's tar whose rank 0 log was gzipped under its plain name (`gzip -c log_0.log
    > out/log_0.log`), rank 1's kept as `log_1.log.gz`, rank 2's left as it is."""
    log = b"".join(LINE % (0, n % 8) for n in range(lines))
    packed = gzip.compress(log)
    path = tmp_path / "job.tar"
    with tarfile.open(path, "w") as tar:
        for name, data in (("log_0.log", packed), ("log_1.log.gz", packed), ("log_2.log", log)):
            info = tarfile.TarInfo(f"job/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path, len(log)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("lines", [200, 20_000])  # scanned in the parent, then by a scanner
def test_a_gzipped_log_is_listed_at_the_size_it_inflated_to(tmp_path, workers, lines):
    path, size = _packed_bundle(tmp_path, lines)
    scans = scan_members(Bundle(path).members(), ScanSettings(), workers=workers)
    assert {s.info.path: s.info.size_bytes for s in scans} == {
        "job/log_0.log": size,
        "job/log_1.log.gz": size,
        "job/log_2.log": size,
    }


def test_workers_return_the_scans_in_bundle_order(tmp_path):
    path = _bundle(tmp_path)
    scans = scan_members(Bundle(path).members(), ScanSettings(), workers=2)
    assert [s.info.path for s in scans] == [f"job/log_{r}.log" for r in range(4)]
    assert [s.info.lines for s in scans] == [20_000] * 4


def test_tracks_from_the_workers_read_as_the_inline_scan_reads_them(tmp_path):
    """A track crosses the pipe compressed; the scans handed back hold it whole again."""
    path = _bundle(tmp_path)
    on_two = scan_members(Bundle(path).members(), ScanSettings(), workers=2)
    inline = scan_members(Bundle(path).members(), ScanSettings(), workers=1)
    for sent, kept in zip(on_two, inline, strict=True):
        got, want = sent.facts["checkpoints"], kept.facts["checkpoints"]
        assert len(got) == len(want) == 20_000
        assert [got.entry(i) for i in range(len(got))] == [want.entry(i) for i in range(len(want))]


def test_a_worker_that_dies_fails_the_scan_instead_of_hanging(tmp_path, monkeypatch):
    real_scan_one = scanner_process.scan_one

    def dies_on_rank_2(stream, info, matcher, store_dir):
        if info.path.endswith("log_2.log"):
            os._exit(9)  # what the out-of-memory killer leaves behind: no result, no error
        return real_scan_one(stream, info, matcher, store_dir)

    monkeypatch.setattr(scanner_process, "scan_one", dies_on_rank_2)
    with pytest.raises(RuntimeError, match="scanner process died"):
        scan_members(Bundle(_bundle(tmp_path)).members(), ScanSettings(), workers=2)


@pytest.mark.timeout(60)
def test_a_worker_killed_while_sending_a_big_result_fails_the_scan(tmp_path, monkeypatch):
    """The parent must not wait for the rest of a half-written message that never comes."""
    real_scan_one = scanner_process.scan_one

    def big_then_dies(stream, info, matcher, store_dir):
        scan = real_scan_one(stream, info, matcher, store_dir)
        if info.path.endswith(("log_0.log", "log_1.log")):
            scan.facts["padding"] = "x" * 8_000_000  # far more than a pipe holds
            return scan
        os._exit(9)

    monkeypatch.setattr(scanner_process, "scan_one", big_then_dies)
    with pytest.raises(RuntimeError, match="scanner process died"):
        scan_members(Bundle(_bundle(tmp_path)).members(), ScanSettings(), workers=2)


def test_the_default_worker_count_follows_the_cpus_this_process_may_use():
    import os

    from analyzers.scan.parallel import usable_cpus

    assert 1 <= usable_cpus() <= (os.cpu_count() or 1)


def test_scanners_inherit_a_frozen_heap_and_the_parent_collects_as_before(tmp_path, monkeypatch):
    """Frozen objects are never visited by a scanner's collector, so the pages it shares
    with the parent stay shared; the parent itself keeps collecting its garbage."""
    import gc

    real_scan_one = scanner_process.scan_one

    def reports_frozen(stream, info, matcher, store_dir):
        scan = real_scan_one(stream, info, matcher, store_dir)
        scan.facts["frozen_objects"] = gc.get_freeze_count()
        return scan

    monkeypatch.setattr(scanner_process, "scan_one", reports_frozen)
    scans = scan_members(Bundle(_bundle(tmp_path)).members(), ScanSettings(), workers=2)
    assert all(scan.facts["frozen_objects"] > 1000 for scan in scans)
    assert gc.get_freeze_count() == 0
