"""Checkpoint lines under a job's own Formatter that borrows another tool's columns: glog's
shape with the rank in the thread id's column, and logging's `%(relativeCreated)` time since the
start in a column before a bar. docs/labelling.md#checkpoints-a-rank-decorates-or-a-handler-sets-in-columns
"""

from __future__ import annotations

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("I1204 09:41:17.208 r6 decode.py:131]   attention passed", "attention passed"),
        ("[default3]:I1204 09:41:17.233 rank3 decode.py:140] layer 1 passed", "layer 1 passed"),
        ("  8831.4 ms | rank 5 | layer 2 attention passed", "layer 2 / attention passed"),
        ("[default0]:   912.0 ms | rank 0 | model run success", "model run success"),
        ("17.05s | layer 0 passed", "layer 0 passed"),
        # counterexamples: a word that is no rank tag in glog's thread column, a count without
        # its unit, a unit with no bar after it
        ("I1204 09:41:17.208 main decode.py:131]   attention passed", None),
        ("42 | layer 1 passed", None),
        ("8831.4 ms layer 1 passed", None),
    ],
)
def test_the_borrowed_columns_are_cut_before_the_checkpoint(line, expected):
    assert CheckpointMatcher().match(line) == expected


def _elapsed_console() -> str:
    """Three ranks of one spawn printing into one console; rank 1 stops after layer 0."""
    lines = []
    ms = 4210.0
    for layer in range(2):
        for rank in range(3):
            if rank == 1 and layer == 1:
                continue
            for part in ("attention", "moe"):
                ms += 3.7
                lines.append(f"{ms:8.1f} ms | rank {rank} | layer {layer} {part} passed")
    lines.append(
        "[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81]"
        " Timed out waiting 15000ms for recv operation to complete"
    )
    return "\n".join(lines) + "\n"


def test_ranks_sharing_a_console_under_an_elapsed_column_keep_their_checkpoints(tmp_path):
    bundle = pack(
        tmp_path / "job.tar.gz",
        {"console.log": _elapsed_console(), "env.txt": "WORLD_SIZE=3\n"},
        "job-7e21",
    )
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert last == {
        0: "layer 1 / moe passed",
        1: "layer 0 / moe passed",
        2: "layer 1 / moe passed",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] == "layer 0 / moe passed"


def test_glog_shaped_rank_files_have_their_timeline(tmp_path):
    files = {}
    for rank in range(2):
        rows = [f"I1204 09:41:17.{100 + rank:03d} r{rank} decode.py:88] group ready: world=2"]
        for layer in range(2):
            rows.append(f"I1204 09:41:17.{200 + layer:03d} r{rank} decode.py:92]   norm passed")
            rows.append(
                f"I1204 09:41:17.{300 + layer:03d} r{rank} decode.py:95] layer {layer} passed"
            )
        rows.append(f"I1204 09:41:17.400 r{rank} decode.py:92]   norm passed")
        files[f"log_{rank}.log"] = "\n".join(rows) + "\n"
    files["env.txt"] = "WORLD_SIZE=2\n"
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-9c40"), AnalyzeOptions(workers=1))
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {0: "layer 2 / norm passed", 1: "layer 2 / norm passed"}
    assert report.correlation["last_common_checkpoint_qualified"] == "layer 2 / norm passed"
