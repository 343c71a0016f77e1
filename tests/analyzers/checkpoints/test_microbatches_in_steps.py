"""A pipeline-parallel training job runs its microbatches again in every step: `stage 1
microbatch 2 forward passed` of step 3 is not the same point as that of step 2. The line is
placed in the step the job's step lines name, as a sub-step line is: `step 3 / microbatch 2 /
forward passed`. Wait lines printed before a blocking recv stay out of the sequence."""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.layer_qualification import SequenceQualifier, qualified_names
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


def _labels(lines: list[str]) -> list[str]:
    matcher = CheckpointMatcher()
    hits = [hit for hit in map(matcher.classify, lines) if hit is not None]
    sequence = [
        hit.text for hit in hits if hit.counted and hit.role != "wait"
    ]  # waits: no checkpoints
    texts = list(dict.fromkeys(sequence))
    qualifier = SequenceQualifier(texts)
    return [qualifier.labels[i] for i in qualifier.qualify([texts.index(t) for t in sequence])]


def test_a_microbatch_line_is_placed_in_its_training_step():
    lines = [
        "stage 1 microbatch 0 forward passed",
        "stage 1 microbatch 0 backward passed",
        "train step 0 passed",
        "waiting for activations of microbatch 0 from rank 0",
        "stage 1 microbatch 0 forward passed",
        "layer 2 passed",
    ]
    assert _labels(lines) == [
        "step 0 / microbatch 0 / forward passed",
        "step 0 / microbatch 0 / backward passed",
        "train step 0 passed",
        "step 1 / microbatch 0 / forward passed",
        "step 1 / layer 2 passed",
    ]
    texts = [CheckpointMatcher().classify(line).text for line in lines if "waiting" not in line]
    assert qualified_names(texts)[3] == "step 1 / microbatch 0 / forward passed"


def test_steps_numbered_from_one_and_lines_before_the_first_step_line():
    lines = [
        "2026-12-05 04:43:55,351 [rank 6] INFO pp stage 3 | microbatch 1 | backward passed",
        "2026-12-05 04:43:55,352 [rank 6] INFO epoch 0 step 1 done, loss=0.412",
        "2026-12-05 04:43:55,353 [rank 6] INFO pp stage 3 | microbatch 1 | backward passed",
    ]
    assert _labels(lines) == [
        "step 1 / microbatch 1 / backward passed",
        "epoch 0 step 1 done",
        "step 2 / microbatch 1 / backward passed",
    ]


def test_a_job_without_step_lines_keeps_the_microbatch_alone():
    assert _labels(
        ["[stage 0] micro-batch 2 fwd passed", "[stage 0] micro-batch 2 bwd passed"]
    ) == [
        "microbatch 2 / fwd passed",
        "microbatch 2 / bwd passed",
    ]


def _stage_log(rank: int, last_step_mbs: int) -> str:
    out = []
    for step in range(3):
        for mb in range(3 if step < 2 else last_step_mbs):
            if rank:
                out.append(f"waiting for activations of microbatch {mb} from rank {rank - 1}")
            out.append(f"stage {rank} microbatch {mb} forward passed")
        if step < 2:
            out += [f"stage {rank} microbatch {mb} backward passed" for mb in (2, 1, 0)]
            out.append(f"train step {step} passed")
    return "\n".join(out) + "\n"


def test_each_stage_and_the_common_checkpoint_name_step_and_microbatch(tmp_path: Path):
    files = {f"pp-job/log_{r}.log": _stage_log(r, 2 if r == 0 else 1) for r in range(2)}
    files["pp-job/log_1.log"] += (
        "[rank1]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x16 and 40x16)\n"
    )
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert ranks == {
        0: "step 2 / microbatch 1 / forward passed",
        1: "step 2 / microbatch 0 / forward passed",
    }
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "step 2 / microbatch 0 / forward passed"


def test_a_microbatch_line_with_the_phase_first_is_the_same_checkpoint():
    lines = [
        "stage 1 fwd mb 0 passed",
        "[default3]:stage 1 bwd mb 0 passed",
        "step 1 done, loss=4.0053",
        "2026-12-05 07:25:09,063 [rank0] INFO stage 0 forward microbatch 1 passed",
        "stage 1 received fwd mb 3 passed from stage 0",  # counterexample: a sentence
    ]
    assert _labels(lines) == [
        "step 1 / microbatch 0 / fwd passed",
        "step 1 / microbatch 0 / bwd passed",
        "step 1 done",
        "step 2 / microbatch 1 / forward passed",
    ]


def test_a_stage_s_layers_after_a_step_line_start_at_its_own_first_layer():
    stage = ["attention passed", "layer 4 passed", "attention passed", "layer 5 passed"]
    lines = [*stage, *stage, "train step 1 passed", "attention passed"]  # two microbatches
    assert _labels(lines)[-1] == "step 2 / layer 4 / attention passed"
    assert qualified_names(lines)[-1] == "step 2 / layer 4 / attention passed"
