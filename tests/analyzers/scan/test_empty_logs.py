"""Rank logs that are all empty are named as such; one rank log with a line in it, or a
bundle with no rank log at all, is read as usual."""

from analyzers.core.types import FileInfo, FileKind, FileScan
from analyzers.scan.empty_logs import all_rank_logs_empty, empty_logs_said


def _scan(path: str, kind: FileKind = FileKind.RANK_LOG, size: int = 0, lines: int = 0):
    return FileScan(FileInfo(path, kind, None, lines=lines, size_bytes=size))


def test_rank_logs_of_zero_bytes_beside_an_environment_dump_are_all_empty():
    scans = [
        _scan("job/log_0.log"),
        _scan("job/log_1.log"),
        _scan("job/env.txt", FileKind.ENV, 14, 1),
    ]
    assert all_rank_logs_empty(scans) == ["job/log_0.log", "job/log_1.log"]


def test_one_rank_log_that_holds_a_line_leaves_the_logs_to_be_read_as_usual():
    scans = [_scan("job/log_0.log"), _scan("job/log_1.log", size=52, lines=1)]
    assert all_rank_logs_empty(scans) == []


def test_a_bundle_with_no_rank_log_has_no_empty_rank_logs():
    assert all_rank_logs_empty([_scan("npu_smi.txt", FileKind.NPU_SMI, 900, 20)]) == []


def test_the_sentence_names_a_few_empty_logs_and_counts_them_all():
    paths = [f"job/log_{rank}.log" for rank in range(6)]
    said = empty_logs_said(paths)
    assert said.en.startswith(
        "all 6 rank logs are empty (0 bytes: job/log_0.log, job/log_1.log, job/log_2.log, "
        "job/log_3.log, …); an empty log shows neither progress nor where its rank stopped"
    )
    assert said.zh.startswith("全部 6 个 rank 日志都是空的（0 字节：job/log_0.log")
