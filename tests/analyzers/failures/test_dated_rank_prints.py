"""Ranks sharing one console, each line a job's own print: a full date (or the time of day
alone), then the rank label in brackets, no level (`print(f"{now} [rank {rank}] {msg}")`).

The label is what tells the ranks apart in the shared file: with it read, each rank has its
own checkpoints and the rank whose error came first is the culprit; the peers' lost
connections afterwards are consequences. Values are our own, in the shape such a job's
console takes (torch 2.13 on gloo, four ranks, one of them fed a wrongly shaped batch).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

DATED = "2026-12-07 09:41:{seconds:02d},{ms:03d}"
TIME_OF_DAY = "09:41:{seconds:02d}.{ms:03d}"


def _console(stamp: str) -> str:
    lines = []
    clock = iter(range(0, 10_000, 37))

    def say(rank: int, message: str) -> None:
        ms = next(clock)
        now = stamp.format(seconds=7 + ms // 1000, ms=ms % 1000)
        lines.append(f"{now} [rank {rank}] {message}")

    for rank in range(4):
        say(rank, "init process group: backend=gloo world_size=4")
    for layer in range(3):
        for rank in range(4):
            if (layer, rank) != (2, 2):
                say(rank, f"layer {layer} passed")
    say(2, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (6x48 and 64x64)")
    for rank in (0, 1, 3):
        say(
            rank,
            "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] "
            f"Connection closed by peer [127.0.0.1]:{41000 + rank}",
        )
    return "\n".join(lines) + "\n"


def _report(tmp_path: Path, stamp: str = DATED) -> dict:
    bundle = pack(tmp_path / "job.tar.gz", {"train.log": _console(stamp)}, "job-s1")
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


@pytest.mark.parametrize("stamp", [DATED, TIME_OF_DAY])
def test_each_rank_in_a_shared_console_of_dated_prints_keeps_its_checkpoints(tmp_path, stamp):
    report = _report(tmp_path, stamp)
    last = {r["rank"]: r["last_checkpoint"] for r in report["ranks"]}
    assert last == {
        0: "layer 2 passed",
        1: "layer 2 passed",
        2: "layer 1 passed",
        3: "layer 2 passed",
    }


def test_the_rank_whose_error_came_first_is_the_culprit(tmp_path):
    diagnosis = _report(tmp_path)["diagnosis"]
    assert diagnosis["category"] == "shape_mismatch"
    assert diagnosis["first_error"]["rank"] == 2
    assert diagnosis["culprit_ranks"] == [2]
