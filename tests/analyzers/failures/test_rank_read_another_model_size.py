"""One rank that read another config file and built a wider model than its peers.

Each rank logs the sizes it read as it starts (`config /srv/cfg/base.json: hidden=32
layers=3`); the rank started with another config file's path states another width
(`hidden=48`). In the first collective its message is wider than its ring successor posted,
and gloo's size check aborts the successor (`op.preamble.length <= op.nbytes. 96 vs 64`),
which names no sender (docs/labelling.md, "A rank that aborts on what a peer sent"). The one
rank that stated another size than all its peers is the culprit. Values are our own, in the
format real torch 2.13 runs on gloo wrote.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

ABORT = [
    "terminate called after throwing an instance of 'gloo::EnforceNotMet'",
    "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:456] op.preamble.length <= op.nbytes. 160 vs 128. Received data size doesn't match "
    "expected size. Is there a distributed collective mismatch in your code?",
]
RESET = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:537] Read error [127.0.0.1]:4117: Connection reset by peer. This is typically caused "
    "by a remote worker hanging or bugs in the application."
)


def _files(odd: int, widths: dict[int, int]) -> dict[str, str]:
    files = {}
    for r in range(4):
        path = "/srv/cfg/base_v2.json" if r == odd else "/srv/cfg/base.json"
        head = f"09:51:0{r} [rank {r}] config {path}: hidden={widths.get(r, 32)} layers=4"
        tail = (
            ABORT
            if r == (odd + 3) % 4
            else [f"[rank{r}]: Traceback (most recent call last):", RESET.format(r=r)]
        )
        files[f"log_{r}.log"] = "\n".join([head, *tail]) + "\n"
    return files


def _culprits(tmp_path: Path, files: dict[str, str]) -> list[int]:
    bundle = pack(tmp_path / "job.tar.gz", files, "job-0c51d2e7")
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()["diagnosis"]["culprit_ranks"]


def test_the_rank_that_stated_another_width_is_the_culprit(tmp_path: Path) -> None:
    assert _culprits(tmp_path, _files(2, {2: 40})) == [2]


def test_ranks_split_in_two_widths_name_no_one(tmp_path: Path) -> None:
    """Counterexample: two ranks of each width do not say which side is wrong."""
    assert _culprits(tmp_path, _files(2, {2: 40, 3: 40})) == []
