"""Which ranks' own logs the bundle holds empty and which of the world's ranks it holds no log
of, read once on the correlation (`analyzers.timeline.rank_logs`)."""

from __future__ import annotations

from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan, RankLogs
from analyzers.timeline.correlate import correlate
from analyzers.timeline.rank_logs import empty_logs_said, logless_said

STEPS = ["load weights passed", "layer 0 passed", "prefill passed"]


def _full(
    path: str, rank: int | None, kind: FileKind = FileKind.RANK_LOG, writer: int | None = None
) -> FileScan:
    """A file holding the checkpoint lines of `rank` (or of `writer`, a rank its lines name)."""
    events = [
        Event(path, n, text, EventKind.CHECKPOINT, text, rank if writer is None else writer)
        for n, text in enumerate(STEPS, start=1)
    ]
    return FileScan(FileInfo(path, kind, rank, lines=len(STEPS), size_bytes=64), events)


def _empty(path: str, rank: int | None, kind: FileKind = FileKind.RANK_LOG) -> FileScan:
    return FileScan(FileInfo(path, kind, rank, lines=0, size_bytes=0))


def test_a_rank_whose_own_log_is_empty_is_named_as_such():
    scans = [_full("log_0.log", 0), _full("log_1.log", 1), _empty("log_2.log", 2)]

    logs = correlate(scans, None).rank_logs

    assert logs == RankLogs(empty=(2,))


def test_a_rank_the_world_size_counts_with_no_file_has_no_log():
    scans = [_full("log_0.log", 0), _full("log_1.log", 1)]

    assert correlate(scans, 4).rank_logs == RankLogs(logless=(2, 3))


def test_an_empty_side_file_is_not_the_ranks_own_log():
    """A device log names its rank but is not the rank's output: with nothing else of the
    rank's in the bundle, its own log is missing, not empty."""
    scans = [_full("log_0.log", 0), _empty("device-1.log", 1, FileKind.DEVICE_LOG)]

    assert correlate(scans, 2).rank_logs == RankLogs(logless=(1,))


def test_an_empty_own_log_of_a_rank_whose_lines_are_elsewhere_is_no_empty_rank():
    """The launcher's console holds rank 1's progress: its own empty file hides nothing."""
    console = _full("launch.out", None, FileKind.LAUNCHER, writer=1)
    scans = [_full("log_0.log", 0), _empty("log_1.log", 1), console]

    assert correlate(scans, 2).rank_logs == RankLogs()


def test_rank_logs_all_empty_are_listed_with_those_that_name_no_rank():
    scans = [
        _empty("job/log_0.log", 0),
        _empty("job/log_1.log", 1),
        _empty("job/train.log", None),
        FileScan(FileInfo("job/env.txt", FileKind.ENV, None, lines=1, size_bytes=14)),
    ]

    logs = correlate(scans, 3).rank_logs

    assert logs.empty == (0, 1)
    assert logs.logless == (2,)
    assert logs.all_empty == ("job/log_0.log", "job/log_1.log", "job/train.log")


def test_one_rank_log_that_holds_a_line_leaves_the_logs_to_be_read_as_usual():
    scans = [_empty("job/log_0.log", 0), _full("job/log_1.log", 1)]

    assert correlate(scans, None).rank_logs.all_empty == ()


def test_a_rank_log_naming_no_rank_that_holds_a_line_leaves_the_logs_to_be_read_as_usual():
    scans = [_empty("job/log_0.log", 0), _full("job/train.log", None)]

    assert correlate(scans, None).rank_logs.all_empty == ()


def test_a_bundle_with_no_rank_log_has_no_empty_rank_logs():
    scans = [FileScan(FileInfo("npu_smi.txt", FileKind.NPU_SMI, None, lines=20, size_bytes=900))]

    assert correlate(scans, None).rank_logs == RankLogs()


def test_the_sentence_names_a_few_empty_logs_and_counts_them_all():
    paths = [f"job/log_{rank}.log" for rank in range(6)]
    said = empty_logs_said(paths)
    assert said.en.startswith(
        "all 6 rank logs are empty (0 bytes: job/log_0.log, job/log_1.log, job/log_2.log, "
        "job/log_3.log, …); an empty log shows neither progress nor where its rank stopped"
    )
    assert said.zh.startswith("全部 6 个 rank 日志都是空的（0 字节：job/log_0.log")


def test_the_sentence_names_the_ranks_with_no_log_and_the_jobs_size():
    said = logless_said(list(range(3, 13)), 16)
    assert said.en.startswith(
        "ranks 3, 4, 5, 6, 7, 8, 9, 10 and 2 more of the job's 16 have no log in the bundle;"
    )
    assert said.zh.startswith("作业的 16 个 rank 中，rank 3、4、5、6、7、8、9、10 等（另有 2 个）")
