"""A rank log cut by rotation (`log_3.log.2`, `log_3.log.1`, `log_3.log`, Python logging's
RotatingFileHandler) is one stream: every segment repeats the checkpoint texts of the others
(each step prints `norm passed` again) without being a copy of them.

The bundle is a 2-rank gloo run under mp.spawn (real line shapes, values of our own): both
ranks ran three prefill steps; rank 1 died in the third step's layer 1 after its attention.
"""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.timeline import rank_sequences

STAMP = "2026-12-04 16:19:{sec:02d},{ms:03d} [rank{rank}] INFO "


def _steps(rank: int, stop: tuple[int, int] | None) -> list[str]:
    lines, tick = [], 0
    for step in range(3):
        parts = [("prefill start: 8 tokens")]
        for layer in range(2):
            parts += [
                "  norm passed",
                "  attention passed",
                "  MoE passed",
                f"layer {layer} passed",
            ]
        if stop is not None and step == stop[0]:
            parts = parts[: 1 + 4 * stop[1] + 2]
        for text in parts:
            lines.append(STAMP.format(sec=10 + tick // 1000, ms=tick % 1000, rank=rank) + text)
            tick += 7
    return lines


NUMBERED = (".2", ".1", "")


def _bundle(
    tmp_path: Path,
    gzipped: bool = False,
    live_too: bool = False,
    suffixes: tuple[str, str, str] = NUMBERED,
    stem: str = "log_{rank}.log",
    newest_first: bool = False,
) -> Path:
    """Both ranks' logs rotated at step boundaries: `suffixes` name the segments oldest first,
    the plain name the newest; `newest_first` packs them in the other order."""
    files: dict[str, str] = {}
    for rank, stop in ((0, None), (1, (2, 1))):
        lines = _steps(rank, stop)
        segments = list(zip(suffixes, (lines[:9], lines[9:18], lines[18:]), strict=True))
        for name, chunk in reversed(segments) if newest_first else segments:
            files[f"job-d35c8d04/{stem.format(rank=rank)}{name}"] = "\n".join(chunk) + "\n"
    files["job-d35c8d04/launcher.log"] = (
        "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal"
        " SIGKILL\n"
    )
    path = tmp_path / "job.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            # logrotate's `compress` gzips the old segments; a collector may gzip every file
            if gzipped and (name[-1].isdigit() or (live_too and name.endswith(".log"))):
                data, name = gzip.compress(data), name + ".gz"
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_rotated_segments_of_a_rank_log_are_read_as_one_stream(tmp_path):
    report = analyze(_bundle(tmp_path), AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}

    assert ranks[0]["checkpoints"] == 24
    assert ranks[1]["checkpoints"] == 22
    assert ranks[1]["last_checkpoint_qualified"] == "layer 1 / attention passed"
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "layer 1 / attention passed"


def test_gzipped_rotated_segments_join_the_live_log(tmp_path):
    report = analyze(_bundle(tmp_path, gzipped=True), AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}

    assert (ranks[0]["checkpoints"], ranks[1]["checkpoints"]) == (24, 22)
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "layer 1 / attention passed"


def test_a_rotated_log_gzipped_whole_is_joined_too(tmp_path):
    """A collector that gzips every file: the live `log_1.log.gz` heads its segments."""
    bundle = _bundle(tmp_path, gzipped=True, live_too=True)
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}

    assert (ranks[0]["checkpoints"], ranks[1]["checkpoints"]) == (24, 22)
    assert ranks[1]["last_checkpoint_qualified"] == "layer 1 / attention passed"


DATED = {
    "logrotate dateext": ("-20261203", "-20261204", ""),
    "logrotate hourly": ("-2026120409", "-2026120410", ""),
    "TimedRotatingFileHandler daily": (".2026-12-03", ".2026-12-04", ""),
    "TimedRotatingFileHandler hourly": (".2026-12-04_09-00-00", ".2026-12-04_10-00-00", ""),
    "day, then hour": (".2026-12-03", ".2026-12-03_10-00-00", ""),
}


@pytest.mark.parametrize("suffixes", DATED.values(), ids=DATED)
def test_dated_segments_of_a_rank_log_are_joined_oldest_first(tmp_path, suffixes):
    bundle = _bundle(tmp_path, suffixes=suffixes, newest_first=True)
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}

    assert (ranks[0]["checkpoints"], ranks[1]["checkpoints"]) == (24, 22)
    assert ranks[1]["last_checkpoint_qualified"] == "layer 1 / attention passed"
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "layer 1 / attention passed"


def test_dated_segments_of_a_log_named_rank_n_take_that_rank(tmp_path):
    suffixes = (".2026-12-04_09-00-00", ".2026-12-04_10-00-00", "")
    bundle = _bundle(tmp_path, suffixes=suffixes, stem="rank{rank}.log")
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}

    assert (ranks[0]["checkpoints"], ranks[1]["checkpoints"]) == (24, 22)
    assert ranks[1]["last_checkpoint_qualified"] == "layer 1 / attention passed"


def test_gzipped_dated_segments_join_the_live_log(tmp_path):
    """logrotate's `dateext` with `compress`: `log_1.log-20261204.gz` beside `log_1.log`."""
    bundle = _bundle(tmp_path, gzipped=True, suffixes=DATED["logrotate dateext"])
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}

    assert (ranks[0]["checkpoints"], ranks[1]["checkpoints"]) == (24, 22)
    assert ranks[1]["last_checkpoint_qualified"] == "layer 1 / attention passed"


@pytest.mark.parametrize(
    ("table", "identity"), [([0, 1, 2], True), ([], True), ([0, 2, 1], False), ([1, 2], False)]
)
def test_a_file_whose_text_ids_are_the_timelines_is_copied_whole(table, identity):
    assert rank_sequences._is_identity(table) is identity


@pytest.mark.parametrize(
    ("file_id", "typecode"), [(0, "B"), (255, "B"), (256, "H"), (65535, "H"), (65536, "I")]
)
def test_a_files_column_takes_the_narrowest_type_that_holds_its_id(file_id, typecode):
    assert rank_sequences._narrowest(file_id) == typecode
