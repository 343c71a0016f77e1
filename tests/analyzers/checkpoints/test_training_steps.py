"""A training loop names its step: `train step 3 passed`, `step 3 done`, `epoch 1 step 4
done, loss=...` close a step and `train step 4 start` opens one. The sub-step lines inside it
(`forward passed`, `backward passed`, `grad all_reduce passed`) are that step's, so a rank that
stopped in the backward of step 3 has `step 3 / backward passed` as its last checkpoint, not a
layer 0 of a model that never printed a layer."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.layer_qualification import SequenceQualifier, qualified_names
from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.checkpoints.track import track_of
from tests.analyzers.excerpts import scan_text
from tests.analyzers.job_bundles import pack

PARTS = ["forward passed", "backward passed", "grad all_reduce passed", "optimizer passed"]


@pytest.mark.parametrize(
    ("line", "text", "role", "step"),
    [
        (
            "2026-12-05 03:51:53,278 [rank0] INFO train step 2 passed",
            "train step 2 passed",
            "train_step",
            2,
        ),
        (
            "[default1]:2026-12-05 03:51:53,279 [rank1] INFO train step 2 start",
            "step 2 start",
            "train_step_start",
            2,
        ),
        ("12/05/2026 03:52:06 - INFO - trainer - step 1 done", "step 1 done", "train_step", 1),
        ("[default3]:iter 30 | done", "iter 30 done", "train_step", 30),
        ("step 7: ok (0.4 s)", "step 7 ok", "train_step", 7),
    ],
)
def test_step_lines_are_read_as_training_steps(line, text, role, step):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role, hit.step) == (text, role, step)


def _qualified(sequence: list[str]) -> list[str]:
    """The labels the pipeline gives one rank's sequence (texts interned job-wide)."""
    texts = list(dict.fromkeys(sequence))
    qualifier = SequenceQualifier(texts)
    return [qualifier.labels[i] for i in qualifier.qualify([texts.index(t) for t in sequence])]


def test_parts_after_a_closed_step_are_in_the_next_step():
    sequence = ["init passed", *PARTS, "step 0 done", *PARTS, "step 1 done", *PARTS[:2]]
    labels = _qualified(sequence)
    assert labels[:6] == [
        "init passed",
        "step 0 / forward passed",
        "step 0 / backward passed",
        "step 0 / grad all_reduce passed",
        "step 0 / optimizer passed",
        "step 0 done",
    ]
    assert labels[-2:] == ["step 2 / forward passed", "step 2 / backward passed"]
    assert qualified_names(sequence)[-2:] == labels[-2:]


def test_a_start_line_opens_its_step_and_layers_stay_named_inside_it():
    texts = ["step 3 start", "layer 0 passed", "norm passed", "train step 3 passed", "norm passed"]
    assert qualified_names(texts) == [
        "step 3 start",
        "step 3 / layer 0 passed",
        "step 3 / layer 1 / norm passed",
        "train step 3 passed",
        "step 4 / layer 0 / norm passed",
    ]


def test_a_loop_without_step_lines_keeps_its_layers():
    assert qualified_names(["norm passed", "layer 0 passed", "norm passed"]) == [
        "layer 0 / norm passed",
        "layer 0 passed",
        "layer 1 / norm passed",
    ]


def _rank_log(rank: int, stop_after: str) -> str:
    stamp = "2026-12-05 03:51:53,{ms:03d} [rank{rank}] INFO "
    lines, tick = [stamp.format(ms=0, rank=rank) + "init passed"], 1
    for step in (1, 2, 3):
        body = [f"train step {step} start", *(f"  {p}" for p in PARTS), f"train step {step} passed"]
        for text in body:
            lines.append(stamp.format(ms=tick, rank=rank) + text)
            tick += 3
            if step == 3 and text.strip() == stop_after:
                return "\n".join(lines) + "\n"
    return "\n".join(lines) + "\n"


def test_each_rank_and_the_common_checkpoint_name_the_step(tmp_path: Path):
    files = {f"job-1/log_{r}.log": _rank_log(r, "backward passed") for r in (0, 1, 3)}
    files["job-1/log_2.log"] = _rank_log(2, "forward passed") + (
        "[rank2]: RuntimeError: Function BadGradBackward returned an invalid gradient at index 0"
        " - got [8, 35] but expected shape compatible with [8, 32]\n"
    )
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r for r in report["ranks"]}
    assert ranks[0]["last_checkpoint_qualified"] == "step 3 / backward passed"
    assert ranks[2]["last_checkpoint_qualified"] == "step 3 / forward passed"
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "step 3 / forward passed"


@pytest.mark.parametrize("line", ["step 12 loss 2.3141", "epoch 1 step 40 loss 0.5312"])
def test_a_bare_loss_print_is_no_checkpoint(line):
    """Many loops print the loss on rank 0 only: read as a step line, it would put rank 0's
    parts in later steps than every other rank's."""
    assert CheckpointMatcher().match(f"2026-12-05 03:51:53,100 [rank0] INFO {line}") is None


def test_loss_printed_by_rank_0_alone_does_not_move_the_blame(tmp_path: Path):
    timeout = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "unbound_buffer.cc:78] Timed out waiting 8000ms for recv operation to complete"
    )
    files = {}
    for rank in range(4):
        lines = []
        for step in range(5):
            parts = PARTS if step < 4 else PARTS[: 1 if rank == 2 else 2]
            stamp = f"2026-12-05 03:51:53,{100 + step * 10:03d} [rank{rank}] INFO "
            lines += [f"{stamp}  {part}" for part in parts]
            if step < 4 and rank == 0:
                lines.append(f"{stamp}step {step} loss 0.{step}1")
        if rank != 2:
            lines.append(f"[rank{rank}]: {timeout}")
        files[f"job-2/log_{rank}.log"] = "\n".join(lines) + "\n"
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    assert report["diagnosis"]["culprit_ranks"] == [2]


def _tee_console(stop: dict[int, int]) -> str:
    """torchrun --tee console of four ranks that open each step with a start line (`step N
    begin`) and close it with `Training step N/8 finished`; rank r stops after `stop[r]` lines
    of its step 1, before any step is closed."""
    body = ["step 1 begin", "  model forward passed", "  loss.backward passed"]
    lines = []
    for rank in range(4):
        lines.append(f"[default{rank}]:INFO:root:init passed")
        lines += [f"[default{rank}]:INFO:root:{text}" for text in body[: stop[rank]]]
    lines.append(
        "[default1]:[rank1]: RuntimeError: Expected to mark a variable ready only once. This"
        " error is caused by one of the following reasons: 1) Use of a module parameter outside"
        " the `forward` function."
    )
    return "\n".join(lines) + "\n"


def _report(tmp_path: Path, files: dict[str, str]) -> dict:
    path = tmp_path / "job.tar.gz"
    pack(path, files)
    return analyze(path, AnalyzeOptions(workers=1)).to_dict()


def test_a_start_line_opens_the_first_step_before_any_step_is_closed(tmp_path: Path):
    """Ranks that fail inside their first step have closed no step: the start line that
    opened it is the only line naming it, so their parts are that step's, not a layer 0 of a
    model that prints no layers."""
    report = _report(tmp_path, {"job-3/launcher.log": _tee_console({0: 2, 1: 2, 2: 3, 3: 2})})
    ranks = {r["rank"]: r for r in report["ranks"]}
    assert ranks[0]["last_checkpoint_qualified"] == "step 1 / model forward passed"
    assert ranks[2]["last_checkpoint_qualified"] == "step 1 / loss.backward passed"
    common = report["correlation"]["last_common_checkpoint_qualified"]
    assert common == "step 1 / model forward passed"


def test_a_start_line_is_never_a_rank_s_last_checkpoint_nor_counted(tmp_path: Path):
    """A rank that printed its start line and nothing after it stopped at what it did before."""
    report = _report(tmp_path, {"job-4/launcher.log": _tee_console({0: 1, 1: 2, 2: 2, 3: 2})})
    ranks = {r["rank"]: r for r in report["ranks"]}
    assert ranks[0]["last_checkpoint_qualified"] == "init passed"
    assert ranks[1]["last_checkpoint_qualified"] == "step 1 / model forward passed"
    assert report["correlation"]["last_common_checkpoint_qualified"] == "init passed"
    assert all("start" not in (r["last_checkpoint"] or "") for r in ranks.values())


@pytest.mark.parametrize(
    ("line", "text", "step"),
    [
        ("2026-12-06 18:40:51,978 INFO [rank0] ckpt saved @ step 8", "ckpt saved @ step 8", 8),
        (
            "[2026-12-06 18:41:06,593][INFO][rank3] ckpt saved @ step 6 (0.8 s)",
            "ckpt saved @ step 6",
            6,
        ),
        (
            "[default1]:Checkpoint saved at step 40 to /ckpt/step_40.pt",
            "Checkpoint saved at step 40",
            40,
        ),
        ("saved checkpoint for global step 12", "saved checkpoint for global step 12", 12),
    ],
)
def test_a_checkpoint_saved_after_a_step_closes_that_step(line, text, step):
    """A loop that saves its state says which step it saved: the step is done, as after
    `step 8 finished`; the words stay in the text, what follows the step is left out."""
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role, hit.step) == (text, "train_step", step)


@pytest.mark.parametrize(
    "line",
    [
        "ckpt save failed @ step 8",
        "checkpoint saved @ step 8 failed: disk full",
        "skipping ckpt saved @ step 8",
        "no checkpoint saved at step 8",
    ],
)
def test_a_checkpoint_save_that_did_not_happen_is_no_checkpoint(line):
    assert CheckpointMatcher().classify(line) is None


def _scanned(lines: list[str]) -> list[str]:
    """The checkpoint texts a scan of one rank's file reads (the byte-level search first)."""
    scan = scan_text("job/log_2.log", "".join(line + "\n" for line in lines))
    track = track_of(scan)
    return [track.texts[i] for i in track.text] if track is not None else []


def test_a_bar_before_the_verb_still_closes_the_step_in_a_scanned_file():
    lines = ["[default2]:iter 29 | done | loss 0.51", "[default2]:iter 30 | done"]
    assert _scanned(lines) == ["iter 29 done", "iter 30 done"]


def test_key_value_stage_lines_are_checkpoints_with_their_fields():
    """`stage=fwd step=12 ok`: each stage of each step, kept with its fields; a failed stage
    and a field list without a verb are none."""
    lines = [
        "stage=fwd step=12 ok",
        "stage=bwd step=12 ok",
        "stage=fwd step=12 loss=0.31",
        "stage=opt step=12 failed",
    ]
    assert _scanned(lines) == ["stage=fwd step=12 ok", "stage=bwd step=12 ok"]
