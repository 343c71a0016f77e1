"""Progress that only rank 0 prints is not progress the other ranks lack.

Guide: "A rank that arrives after its peers gave up" (the rank that printed no line of the
failure) and the rank comparison it relies on. A trainer that routes its progress through a
rank-zero-only logger leaves ranks 1..N without a single checkpoint although they ran the same
steps; rank 0 is then not "ahead" of them, and a rank that stayed silent while the others
timed out is still the one they waited for.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

TOP = "job-4b7e19c2"
RUN = "torchrun_logs/0f3c2a8e-51d7-4d0b-9a61-3c2f7be0d5aa_k2x7q1mz/attempt_0"
SCRIPT = "/home/ml/toymoe/train.py"
WARN = (
    "{script}:99: UserWarning: rank {rank}: The 'train_dataloader' does not have many workers "
    "which may be a bottleneck. Consider increasing the value of the `num_workers` argument.\n"
    "  warnings.warn(\n"
)


def _timeout(rank: int, op: str, line: int) -> str:
    return (
        f"[rank{rank}]: Traceback (most recent call last):\n"
        f'[rank{rank}]:   File "{SCRIPT}", line 193, in <module>\n'
        f"[rank{rank}]:     main()\n"
        f'[rank{rank}]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/'
        f'distributed_c10d.py", line 3252, in all_reduce\n'
        f"[rank{rank}]:     work.wait()\n"
        f"[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        f"unbound_buffer.cc:{line}] Timed out waiting 8000ms for {op} operation to complete\n"
    )


def _start(rank: int, world: int) -> str:
    return (
        f"init process group: backend=gloo rank={rank} world_size={world} local_rank={rank}\n"
        f"Initializing distributed: GLOBAL_RANK: {rank}, MEMBER: {rank + 1}/{world}\n"
    )


def _job(tmp_path: Path, zero_only: bool) -> Path:
    """Four ranks; rank 3 sits in an exception handler (it prints only that it saves) while
    ranks 0-2 time out in the attention all_reduce of layer 0."""
    progress = (
        "building toy model: layers=4 hidden=32\n"
        "load weights passed\n"
        "prefill start: 8 tokens\n"
        "  norm passed\n"
    )
    files = {}
    for rank in range(4):
        out = _start(rank, 4)
        if rank == 0 or not zero_only:
            out += progress
        if rank == 3:
            out += "saving emergency checkpoint to ckpt/emergency/\n"
        err = WARN.format(script=SCRIPT, rank=rank)
        if rank != 3:
            err += _timeout(rank, "send" if rank == 0 else "recv", 129 if rank == 0 else 78)
        files[f"{RUN}/{rank}/stdout.log"] = out
        files[f"{RUN}/{rank}/stderr.log"] = err
    return pack(tmp_path / "job.tar.gz", files, TOP)


def test_rank_zero_only_progress_blames_the_silent_rank(tmp_path):
    report = analyze(_job(tmp_path, zero_only=True), AnalyzeOptions(workers=1))
    assert report.correlation["ahead_ranks"] == []
    assert report.diagnosis.category == "hccl"
    assert report.diagnosis.culprit_ranks == [3]


def test_every_rank_printing_progress_reads_the_same(tmp_path):
    # counterexample: progress on every rank; the silent rank 3 is still the culprit, and
    # nobody is ahead because the counts agree
    report = analyze(_job(tmp_path, zero_only=False), AnalyzeOptions(workers=1))
    assert report.correlation["ahead_ranks"] == []
    assert report.diagnosis.culprit_ranks == [3]


# --- a save line that rank 0 alone prints ---------------------------------------------------


def _stalled_job(tmp_path: Path, savers: tuple[int, ...]) -> Path:
    """Four ranks close steps 1-4 and then stop without an error (a hang); the `savers` also
    log that they saved the checkpoint of step 4."""
    files = {}
    for rank in range(4):
        lines = [
            f"2026-12-06 10:00:0{step},000 INFO [rank{rank}] step {step} finished, loss=1.02"
            for step in range(1, 5)
        ]
        if rank in savers:
            lines.append(f"2026-12-06 10:00:04,500 INFO [rank{rank}] ckpt saved @ step 4")
        files[f"log_{rank}.log"] = "\n".join(lines) + "\n"
    return pack(tmp_path / "job.tar.gz", files, "job-5a2f")


def test_a_save_line_rank_0_alone_prints_does_not_put_it_ahead(tmp_path: Path) -> None:
    """Rank 0 saves and says so; the others go on. Its save line is no progress the others
    lack: every rank stopped after `step 4 finished`, and none is singled out."""
    report = analyze(_stalled_job(tmp_path, (0,)), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == []
    assert {r.last_checkpoint for r in report.ranks} == {"step 4 finished"}


def test_a_save_line_every_rank_prints_is_their_last_checkpoint(tmp_path: Path) -> None:
    """Counterexample: every rank logs its save, so the save is where they all stopped."""
    report = analyze(_stalled_job(tmp_path, (0, 1, 2, 3)), AnalyzeOptions(workers=1))
    assert {r.last_checkpoint for r in report.ranks} == {"ckpt saved @ step 4"}
