"""torchrun tags the lines it copies from a local rank with the agent's role: `[default3]:`
unless the launch names one (`torchrun --role trainer --tee 3` writes `[trainer3]:`). A console
with no per-rank files beside it is then the only place the ranks' lines are, so the role tag
must place them like the default one does.

The console below is written in the shape of a real single-node run (torch 2.13, gloo, four
ranks, Python logging with timestamps, `--role trainer --tee 3`): rank 2 raises a shape error
in layer 1's attention, its peers lose the connection, and the agent reports the failed child.
"""

from __future__ import annotations

import re
from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.formats.outer_prefix import AGENT_ROLE
from analyzers.pipeline import analyze

SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"
LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:41702. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)
STEPS = ["prefill start: 8 tokens", " norm passed", " attention passed", " MoE passed"]
STEPS += ["layer 0 passed", " norm passed"]


def _console(role: str) -> str:
    api = "torch/distributed/elastic/multiprocessing/api.py"
    lines = []
    for rank in range(4):
        head = f"[{role}{rank}]:2026-12-06 14:02:1{rank},2{rank}0 [rank{rank}]"
        lines.append(f"{head} INFO init process group: backend=gloo rank={rank} world_size=4")
        lines += [f"{head} INFO {step}" for step in STEPS]
    for rank in (2, 0, 1, 3):
        head = f"[{role}{rank}]:2026-12-06 14:02:15,{400 + rank:03d} [rank{rank}]"
        error = SHAPE if rank == 2 else LOST
        lines += [
            f"{head} ERROR model run failed: {error.split(': ', 1)[1]}",
            f"[{role}{rank}]:Traceback (most recent call last):",
            f'[{role}{rank}]:  File "/srv/serve/infer.py", line 201, in forward',
            f"[{role}{rank}]:    x = layer(x, verbose)",
            f"[{role}{rank}]:{error}",
        ]
        if rank == 2:
            lines.append(f"[{role}2]:[rank2]: {SHAPE}")
    lines += [
        f"W1206 14:02:15.611000 5120 {api}:1028] Sending process 5201 closing signal SIGTERM",
        f"E1206 14:02:15.902000 5120 {api}:1002] failed (exitcode: 1) local_rank: 2 "
        "(pid: 5203) of binary: /usr/bin/python3",
    ]
    return "\n".join(lines) + "\n"


def _bundle(root: Path, role: str) -> Path:
    job = root / "serve-job"
    job.mkdir()
    (job / "launcher.log").write_text(_console(role))
    return job


def test_a_named_role_places_the_console_lines_like_the_default_tag(tmp_path: Path) -> None:
    report = analyze(_bundle(tmp_path, "trainer"), AnalyzeOptions(workers=1))
    assert report.diagnosis.category == "shape_mismatch"
    assert report.diagnosis.culprit_ranks == [2]
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {r: "layer 1 / norm passed" for r in range(4)}


def test_the_default_tag_reads_the_same(tmp_path: Path) -> None:
    report = analyze(_bundle(tmp_path, "default"), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [2]


def test_a_role_is_a_name_and_not_a_counter() -> None:
    """Counterexample: torch's global `[rankN]:` and a program's bracketed counters are not an
    agent's role tag."""
    tag = re.compile(r"\[" + AGENT_ROLE + r"(\d+)\]:")
    for line in ("[trainer3]:x", "[decoder12]:x", "[default0]:x", "[rl-actor1]:x"):
        assert tag.match(line), line
    for line in ("[rank3]: x", "[epoch1]: loss 0.3", "[step20]: ok", "[node1]: up", "[E1206 x"):
        assert not tag.match(line), line
