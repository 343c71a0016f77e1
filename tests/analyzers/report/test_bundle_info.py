"""The bundle's part of the report: its files, and the warnings and limit hits that say what
was cut or read another way."""

from __future__ import annotations

from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.limits import Limits
from analyzers.core.report import Diagnosis
from analyzers.core.types import (
    Correlation,
    ErrorRef,
    Event,
    EventKind,
    FileInfo,
    FileKind,
    FileScan,
    RankLogs,
    RankStatus,
    RankSummary,
)
from analyzers.ingest.bundle import Bundle
from analyzers.report.bundle_info import bundle_info, tail_notes
from analyzers.scan import host_labels
from analyzers.scan.store_budget import StoreBudget


def scan(path: str, **facts) -> FileScan:
    info = FileInfo(path=path, kind=FileKind.RANK_LOG, rank=0, lines=1, size_bytes=14)
    return FileScan(info=info, facts=facts)


def correlation(logs: RankLogs | None = None, world: int = 0) -> Correlation:
    ranks = [RankSummary(rank, RankStatus.HUNG, None, None) for rank in range(world)]
    return Correlation(ranks, Timeline(), world or None, rank_logs=logs or RankLogs())


def info_of(tmp_path, scans, logs: RankLogs, world: int):
    log = tmp_path / "log_0.log"
    log.write_text("step 1\n", encoding="utf-8")
    limits = Limits()
    bundle = Bundle(log, limits=limits)
    return bundle_info(
        "job.tar",
        "0" * 64,
        7,
        scans,
        bundle,
        StoreBudget(None, 1),
        limits,
        correlation(logs, world),
    )


def test_files_past_the_listed_limit_are_counted_and_a_cut_host_list_is_a_limit(tmp_path):
    log = tmp_path / "console.log"
    log.write_text("node7: step 1\n", encoding="utf-8")
    limits = Limits(listed_files=1)
    scans = [scan("console.log", **{host_labels.DROPPED: True}), scan("rank1.log")]

    bundle = Bundle(log, limits=limits)
    info = bundle_info(
        "console.log", "0" * 64, 14, scans, bundle, StoreBudget(None, 1), limits, correlation()
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


def test_ranks_with_no_log_and_rank_logs_all_empty_are_each_a_limit(tmp_path):
    logs = RankLogs(empty=(0, 1), logless=(2, 3), all_empty=("log_0.log", "log_1.log"))

    info = info_of(tmp_path, [scan("log_0.log"), scan("log_1.log")], logs, 4)

    assert [hit.limit for hit in info.limits] == ["empty_logs", "missing_logs"]
    missing = info.limits[1]
    assert missing.message.startswith("ranks 2, 3 of the job's 4 have no log in the bundle;")
    assert (missing.message_zh or "").startswith(
        "作业的 4 个 rank 中，rank 2、3 在日志包里没有日志"
    )
    assert info.warnings[-2:] == [hit.message for hit in info.limits]


def test_an_empty_rank_log_among_full_ones_is_no_limit(tmp_path):
    """Counterexample: its rank reached no checkpoint, which the common checkpoint already
    shows; only a log that is not there at all leaves the reading short."""
    info = info_of(tmp_path, [scan("log_0.log"), scan("log_1.log")], RankLogs(empty=(1,)), 2)

    assert info.limits == []
