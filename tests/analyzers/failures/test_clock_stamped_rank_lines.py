"""A job's own log format: the time of day in brackets, a level letter, a short rank tag.

A script that writes one log file per rank often keeps its Formatter short:
`[%(asctime)s.%(msecs)03d] %(levelname).1s r{rank}: %(message)s` with `%H:%M:%S`, so every
line reads `[12:15:19.226] I r0:   norm passed`. The header says who wrote the line and at
what level; the checkpoint is what follows it. Values are our own, in the format real torch
2.13 runs on gloo wrote (six ranks under torchrun, one of them in another collective,
`TORCH_DISTRIBUTED_DEBUG=DETAIL`).
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

_OPTIONS = (
    "TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), "
    "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))"
)


def _fingerprint(op: str) -> str:
    return (
        f"CollectiveFingerPrint(SequenceNumber=5, OpType={op}, TensorShape=[6, 16], "
        f"TensorDtypes=Float, TensorDeviceTypes={_OPTIONS})"
    )


def _mismatch(rank: int, odd: int) -> str:
    mine, other = ("ALLGATHER", "ALLREDUCE") if rank == odd else ("ALLREDUCE", "ALLGATHER")
    peer = 0 if rank == odd else odd
    return (
        "Detected mismatch between collectives on ranks. "
        f"Rank {rank} is running collective: {_fingerprint(mine)}, but Rank {peer} is running "
        f"collective: {_fingerprint(other)}.Collectives differ in the following aspects: "
        f"  Op type: {mine}vs {other}"
    )


def _log(rank: int, odd: int) -> str:
    """Two layers done, the third's norm, then the fingerprint check in its attention."""
    clock = iter(range(100))

    def line(level: str, message: str) -> str:
        return f"[09:41:07.{400 + 7 * next(clock):03d}] {level} r{rank}: {message}\n"

    text = line("I", f"init process group: backend=gloo rank={rank} world_size=4 timeout=20s")
    text += line("I", "load weights passed")
    text += line("I", "all ranks loaded weights")
    text += line("I", "prefill start: 6 tokens")
    for layer in range(2):
        for part in ("norm", "attention", "mlp"):
            text += line("I", f"  {part} passed")
        text += line("I", f"layer {layer} passed")
    text += line("I", "  norm passed")
    text += line("E", f"model run failed: {_mismatch(rank, odd)}")
    return text


def _report(tmp_path: Path, files: dict[str, str]) -> dict:
    return analyze(
        pack(tmp_path / "job.tar.gz", files, "job-c7"), AnalyzeOptions(workers=1)
    ).to_dict()


def test_checkpoints_after_a_clock_level_letter_and_rank_tag_are_read(tmp_path):
    report = _report(tmp_path, {f"log_{r}.log": _log(r, odd=2) for r in range(4)})
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == dict.fromkeys(range(4), "layer 2 / norm passed")
    assert report["correlation"]["last_common_checkpoint_qualified"] == "layer 2 / norm passed"
    assert report["diagnosis"]["category"] == "hccl"
    assert report["diagnosis"]["culprit_ranks"] == [2]
