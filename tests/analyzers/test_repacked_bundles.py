"""A job's logs give the same diagnosis however they are packed and named: a zip of gzipped
logs, a folder holding a node's tarball, a scheduler's per-task file names, a profile beside
the logs. Each case repacks a corpus bundle with the ranks taken out of its lines, so only
the bundle reader and the layout rules can tell whose lines they are."""

from __future__ import annotations

import gzip
import io
import re
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from analyzers import AnalyzeOptions, analyze
from tests.corpus_path import CORPUS

BUNDLE = CORPUS / "torch" / "crash_one_rank.tar.gz"
Files = dict[str, bytes]
# `[rank3]:` prefixes and `rank=3` fields: without them a line's rank is its file's
RANK_IN_LINE = re.compile(rb"\[rank\d+\]:? ?|\brank=\d+ ?")


def _members(bundle: Path) -> Files:
    with tarfile.open(bundle) as tar:
        return {
            info.name: RANK_IN_LINE.sub(b"", tar.extractfile(info).read())  # type: ignore[union-attr]
            for info in tar
            if info.isfile()
        }


def _tar_gz(files: Files) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _zip_of_gzipped_logs(files: Files, where: Path) -> Path:
    with zipfile.ZipFile(where / "job.zip", "w") as zf:
        for name, data in files.items():
            logs = name.endswith(".log")
            zf.writestr(name + ".gz" if logs else name, gzip.compress(data) if logs else data)
    return where / "job.zip"


def _folder_with_a_node_tarball(files: Files, where: Path) -> Path:
    folder = where / "job"
    folder.mkdir()
    (folder / "node1.tar.gz").write_bytes(_tar_gz(files))
    return folder


def _slurm_task_files(files: Files, where: Path) -> Path:
    renamed = {
        name.replace("log_", "slurm-12345_").replace(".log", ".out") if "/log_" in name else name: d
        for name, d in files.items()
    }
    (where / "job.tar.gz").write_bytes(_tar_gz(renamed))
    return where / "job.tar.gz"


def _profile_beside_the_logs(files: Files, where: Path) -> Path:
    top = next(iter(files)).split("/")[0]
    extra = {f"{top}/profile_rank7.nsys-rep": b"\x00NSYS" + bytes(range(256)) * 64}
    (where / "job.tar.gz").write_bytes(_tar_gz({**files, **extra}))
    return where / "job.tar.gz"


def _summary(report: dict[str, Any]) -> dict[str, Any]:
    diagnosis = report["diagnosis"]
    first = diagnosis["first_error"]
    return {
        "category": diagnosis["category"],
        "first_error": first and (first["line"], first["text"], first["rank"]),
        "culprits": diagnosis["culprit_ranks"],
        "ranks": [
            (r["rank"], r["last_checkpoint_qualified"], r["checkpoints"]) for r in report["ranks"]
        ],
    }


REPACKS: dict[str, Callable[[Files, Path], Path]] = {
    "zip of gzipped logs": _zip_of_gzipped_logs,
    "folder holding a node tarball": _folder_with_a_node_tarball,
    "slurm per-task files": _slurm_task_files,
    "profile named by a rank": _profile_beside_the_logs,
}


@pytest.mark.parametrize("repack", list(REPACKS), ids=list(REPACKS))
def test_a_repacked_bundle_is_diagnosed_as_the_original(tmp_path, repack):
    files = _members(BUNDLE)
    (tmp_path / "original.tar.gz").write_bytes(_tar_gz(files))
    original = _summary(analyze(tmp_path / "original.tar.gz", AnalyzeOptions(workers=1)).to_dict())
    assert original["first_error"][2] == 3  # read from `log_3.log`
    repacked = REPACKS[repack](files, tmp_path)

    assert _summary(analyze(repacked, AnalyzeOptions(workers=1)).to_dict()) == original
