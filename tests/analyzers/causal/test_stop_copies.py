"""A job interrupted under torchrun with `--tee`: each rank's own file holds its lines with no
time, the agent's console holds a `[defaultN]:` copy of every one of them among its own
timed lines. The copy places a rank's lost connection after the agent's stop record, so the
record stays the first error (docs/labelling.md, "A job stopped from outside").
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, bundle

TREE = "torchrun_logs/job_x1/attempt_0"
AGENT = "W1204 18:01:29.391000 11599 torch/distributed/elastic/agent/server/api.py:753]"
RECORD = f"{AGENT} Received 2 death signal, shutting down workers"


def checkpoints(rank: int, behind: bool) -> list[str]:
    lines = [f"2026-12-04 18:01:20,1{rank}0 [rank{rank}] INFO load weights passed"]
    parts = [" norm passed", " attention passed", " MoE passed", "layer 0 passed"]
    parts += [] if behind else [" norm passed"]
    return lines + [
        f"2026-12-04 18:01:20,2{rank}{n} [rank{rank}] INFO {p}" for n, p in enumerate(parts)
    ]


def interrupted(rank: int, lost_peer: bool) -> list[str]:
    lines = [f"[rank{rank}]: Traceback (most recent call last):"]
    lines.append(f'[rank{rank}]:   File "/home/user/llm-infer/infer.py", line 128, in forward')
    if lost_peer:
        lines.append(f"[rank{rank}]: RuntimeError: {CLOSED}")
        lines.append(
            f"[rank{rank}]: During handling of the above exception, another exception occurred:"
        )
        lines.append(f"[rank{rank}]: Traceback (most recent call last):")
        lines.append(f'[rank{rank}]:   File "/home/user/llm-infer/infer.py", line 128, in forward')
    lines.append(f"[rank{rank}]: KeyboardInterrupt")
    return lines


def job(tmp_path: Path, copies_after_record: bool) -> Path:
    own = {r: checkpoints(r, behind=r == 2) for r in range(4)}
    ends = {r: interrupted(r, lost_peer=r != 2) for r in range(4)}
    teed = [f"[default{r}]:{line}" for r in range(4) for line in own[r]]
    copies = [f"[default{r}]:{line}" for r in (2, 0, 1, 3) for line in ends[r]]
    agent = [RECORD] + [f"{AGENT} Sending process 1166{r} closing signal SIGINT" for r in range(4)]
    launcher = teed + (agent + copies if copies_after_record else copies + agent)
    extra = {"launcher.log": "\n".join(launcher) + "\n"}
    for r in range(4):
        extra[f"{TREE}/{r}/stderr.log"] = "\n".join(own[r] + ends[r]) + "\n"
        extra[f"{TREE}/{r}/stdout.log"] = ""
    return bundle(tmp_path, [], 4, extra)


def test_a_lost_peer_whose_copy_follows_the_stop_is_what_the_stop_did(tmp_path: Path) -> None:
    diagnosis = analyze(job(tmp_path, True), AnalyzeOptions(workers=1)).diagnosis
    assert_reads(diagnosis, "hang", first_error="Received 2 death signal")
    assert diagnosis.culprit_ranks == [2]


def test_a_lost_peer_whose_copy_precedes_the_stop_came_first(tmp_path: Path) -> None:
    diagnosis = analyze(job(tmp_path, False), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text


def _through_kubectl(path: Path, tmp_path: Path) -> Path:
    """The same job read back with `kubectl logs --timestamps`: the collector's UTC stamp of
    each line in front of it, while the agent's own records keep the host's local time, eight
    hours ahead (`W1204 18:01:29` is 10:01:29 UTC)."""
    out = tmp_path / "collected.tar.gz"
    with tarfile.open(path) as src, tarfile.open(out, "w:gz") as dst:
        for member in src.getmembers():
            text = src.extractfile(member).read().decode()  # type: ignore[union-attr]
            if member.name.endswith(".log"):
                text = "".join(
                    f"2026-12-04T10:01:{20 + n // 10:02d}.{n:09d}Z {line}\n"
                    for n, line in enumerate(text.splitlines())
                )
            data = text.encode()
            member.size = len(data)
            dst.addfile(member, io.BytesIO(data))
    return out


def test_a_collector_s_stamps_are_not_read_against_the_agent_s_own_clock(tmp_path: Path) -> None:
    """The ranks' lines carry only the collector's stamps, the agent's stop record its own
    local time: two clocks, so the copies' order still places the lost peers after the stop."""
    collected = _through_kubectl(job(tmp_path, True), tmp_path)
    diagnosis = analyze(collected, AnalyzeOptions(workers=1)).diagnosis
    assert_reads(diagnosis, "hang", first_error="Received 2 death signal")
    assert diagnosis.culprit_ranks == [2]
