"""torch.distributed.pipelining's own progress line: each rank logs, behind torch's debug
record header (`V`), that it has built its pipeline stage. A run that stops after it stopped in
the stages' first exchange, not while the model was built (analyzers/knowledge/checkpoints.yaml,
`pipeline_stage_init`)."""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

_STAGE = "*/torch/distributed/pipelining/stage.py"


def _init(rank: int, stage: int) -> str:
    return (
        f"[rank{rank}]:[rank{rank}]:V0412 08:14:5{rank}.905000 {4100 + rank} {_STAGE}:1326]"
        f" Finished pipeline stage init, self.stage_index={stage}, self.is_first={stage == 0},"
        f" self.is_last={stage == 1}, self.num_stages=2,  running shape-inference at runtime"
    )


def _exchange(rank: int, stage: int) -> str:
    verb = "sending to stage 1" if stage == 0 else "receiving from stage 0"
    return (
        f"[rank{rank}]:[rank{rank}]:V0412 08:15:0{rank}.112000 {4100 + rank} {_STAGE}:1354]"
        f" Shape inference: stage {stage} {verb}"
    )


def _job(tmp_path: Path, lines: list[str]):
    files = {"train_pp.log": "\n".join(lines) + "\n"}
    return analyze(pack(tmp_path / "job.tar.gz", files, "pp-run"), AnalyzeOptions(workers=1))


def test_a_pipeline_that_stalls_after_its_stages_were_built(tmp_path):
    # two nodes, two stages: ranks 0-1 hold stage 0, ranks 2-3 stage 1; the log ends in the
    # stages' first exchange
    stages = {0: 0, 1: 0, 2: 1, 3: 1}
    lines = [_init(rank, stage) for rank, stage in stages.items()]
    lines += [_exchange(rank, stage) for rank, stage in stages.items()]
    report = _job(tmp_path, lines)
    assert report.diagnosis.category == "hang"
    assert report.world_size == 4
    assert report.diagnosis.last_common_checkpoint == "pipeline stage init passed"
    assert {rank.last_checkpoint for rank in report.ranks} == {"pipeline stage init passed"}


def test_the_exchange_lines_alone_are_no_checkpoint(tmp_path):
    # counterexample: without the stage-init line nothing marks progress; the shape-inference
    # lines name stages, not ranks, and are no checkpoint of their own
    stages = {0: 0, 1: 0, 2: 1, 3: 1}
    report = _job(tmp_path, [_exchange(rank, stage) for rank, stage in stages.items()])
    assert report.diagnosis.last_common_checkpoint is None
