"""A job script that relaunches its ranks after a failure, each try appending to the same
`log_<rank>.log`, and resuming from the last save.

The try after the failure begins with the rank's start line again and then closes a step the
failed try had already closed (the step after the save), not the rank's first one. The first
try's error is what made the job retry (`docs/labelling.md`, "A job its launcher restarted"):
a later try that fails another way (the retry drops the bad sample and a batch of one fails in
batch norm) is evidence, and the ranks are placed by the last try. Values are our own, in the
format real torch 2.13 runs on gloo wrote.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

STACK = (
    "[rank1]: RuntimeError: stack expects each tensor to be equal size, but got [64] at entry 0 "
    "and [80] at entry 1"
)
BATCH_NORM = (
    "[rank1]: ValueError: Expected more than 1 value per channel when training, got input size "
    "torch.Size([1, 64])"
)
CLOSED = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:553] Connection closed by peer [127.0.0.1]:41{r}07. This is typically caused by a "
    "remote worker crashing. Check the logs of the remote worker before reporting an error."
)


def _try(rank: int, attempt: int, steps: range, error: str) -> list[str]:
    head = (
        f"2026-12-06 11:1{attempt}:05 | rank {rank} | job start (restart {attempt}), world_size=4"
    )
    lines = [head]
    if steps.start > 1:
        lines.append(
            f"2026-12-06 11:1{attempt}:20 | rank {rank} | resumed from /ckpt/latest.pt at iteration {steps.start - 1}"
        )
    for step in steps:
        lines.append(
            f"2026-12-06 11:1{attempt}:21 | rank {rank} | iteration {step}/30 done | loss 0.3{step % 10}"
        )
        if step == 4 and rank == 0 and attempt == 0:
            lines.append(
                "2026-12-06 11:10:21 | rank 0 | checkpoint saved: /ckpt/latest.pt (iteration 4)"
            )
    lines += [f"[rank{rank}]: Traceback (most recent call last):", error]
    return lines


def test_the_first_try_names_the_failure_and_the_last_places_the_ranks(tmp_path: Path) -> None:
    files = {}
    for r in range(4):
        first = STACK if r == 1 else CLOSED.format(r=r)
        last = BATCH_NORM if r == 1 else CLOSED.format(r=r)
        files[f"log_{r}.log"] = (
            "\n".join([*_try(r, 0, range(1, 7), first), *_try(r, 1, range(5, 6), last)]) + "\n"
        )
    bundle = pack(tmp_path / "job.tar.gz", files, "job-5b20e1d4")
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    diagnosis = report["diagnosis"]
    assert diagnosis["category"] == "shape_mismatch"
    assert "stack expects each tensor to be equal size" in diagnosis["first_error"]["text"]
    assert diagnosis["culprit_ranks"] == [1]
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == dict.fromkeys(range(4), "iteration 5 done")
