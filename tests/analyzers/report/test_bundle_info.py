"""The bundle's part of the report: its files, and the warnings and limit hits that say what
was cut or read another way."""

from __future__ import annotations

from analyzers.core.limits import Limits
from analyzers.core.report import Diagnosis
from analyzers.core.types import ErrorRef, Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.ingest.bundle import Bundle
from analyzers.report.bundle_info import bundle_info, tail_notes
from analyzers.scan import host_labels
from analyzers.scan.store_budget import StoreBudget


def scan(path: str, **facts) -> FileScan:
    info = FileInfo(path=path, kind=FileKind.RANK_LOG, rank=0, lines=1, size_bytes=14)
    return FileScan(info=info, facts=facts)


def test_files_past_the_listed_limit_are_counted_and_a_cut_host_list_is_a_limit(tmp_path):
    log = tmp_path / "console.log"
    log.write_text("node7: step 1\n", encoding="utf-8")
    limits = Limits(listed_files=1)
    scans = [scan("console.log", **{host_labels.DROPPED: True}), scan("rank1.log")]

    info = bundle_info(
        "console.log", "0" * 64, 14, scans, Bundle(log, limits=limits), StoreBudget(None, 1), limits
    )

    assert [f.path for f in info.files] == ["console.log"]
    assert info.files_not_listed == 1
    assert [hit.limit for hit in info.limits] == ["host_labels"]
    assert info.warnings[-1].startswith("console.log: its host labels named more than 1,024")
    assert len(info.warnings_zh) == len(info.warnings)


def test_a_first_error_read_from_a_files_last_lines_is_noted():
    tail = Event(file="rank0.log", line=9, text="Killed", kind=EventKind.ERROR)
    cited = Diagnosis(first_error=ErrorRef(file="rank0.log", line=9, text="Killed"))
    elsewhere = Diagnosis(first_error=ErrorRef(file="rank1.log", line=9, text="Killed"))

    assert tail_notes(cited, [tail])[0].en.startswith("rank0.log: no line of the bundle")
    assert tail_notes(elsewhere, [tail]) == []
    assert tail_notes(Diagnosis(), [tail]) == []
