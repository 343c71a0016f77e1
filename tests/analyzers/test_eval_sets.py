"""Scoring several labelled sets at once: each set keeps its own figures, and the pooled
line and reliability table count every case once."""

from __future__ import annotations

import tarfile
from dataclasses import replace

import pytest

from analyzers.eval import (
    Outcome,
    Sample,
    Score,
    _checkpoints_ok,
    as_bundle,
    main,
    pooled,
    render,
    render_sets,
)


def outcome(name: str, right: bool, confidence: float = 0.9) -> Outcome:
    return Outcome(
        name=name,
        category="hccl" if right else "hang",
        expected="hccl",
        category_ok=right,
        first_error="HCCL timeout" if right else None,
        first_error_ok=right,
        culprits=(),
        culprits_ok=None,
        confidence=confidence,
    )


def test_pooling_counts_each_case_of_each_set_once() -> None:
    dev = Score((outcome("d01", True), outcome("d02", True)))
    batch = Score((outcome("h01", True), outcome("h02", False)))
    everything = pooled([dev, batch])
    assert len(everything.outcomes) == 4
    assert everything.category_accuracy == 0.75


def test_the_summary_shows_every_set_and_the_pool() -> None:
    named = [
        ("corpus", Score((outcome("d01", True),))),
        ("batch-e", Score((outcome("h01", True), outcome("h02", False, confidence=0.85)))),
    ]
    summary = render_sets(named).split("== all sets", 1)[1].splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in summary if line[:1].isalpha()}
    assert rows["corpus"] == ["1", "100%", "100%"]
    assert rows["batch-e"] == ["2", "50%", "50%"]
    assert rows["pooled"] == ["3", "67%", "67%"]
    assert "at ≥0.8: 67% right (target ≥95%)" in summary


def test_a_verbose_row_shows_the_confidence_and_the_other_labels() -> None:
    sure = outcome("h01", True, confidence=0.97)
    unsure = replace(sure, name="h02", confidence=0.61, alternatives=("hang", "stream_sync"))
    shown = render(Score((sure, unsure)), verbose=True).splitlines()
    assert shown[0].split()[-3:] == ["0.97", "(want", "hccl)"]
    assert shown[1].strip() == "alternatives: none"
    assert shown[3].split()[-3:] == ["0.61", "(want", "hccl)"]
    assert shown[4].strip() == "alternatives: hang, stream_sync"


def test_several_corpus_options_score_each_directory(tmp_path, capsys) -> None:
    empty_a, empty_b = tmp_path / "a", tmp_path / "b"
    (empty_a / "cases").mkdir(parents=True)
    (empty_b / "torch").mkdir(parents=True)
    main(["--corpus", str(empty_a), "--corpus", str(empty_b)])
    out = capsys.readouterr().out
    assert f"== {empty_a}" in out
    assert f"== {empty_b}" in out
    assert "pooled" in out


def test_a_folder_that_is_no_labelled_set_is_refused_with_the_layout_it_needs(
    tmp_path, capsys
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--corpus", str(tmp_path / "nowhere")])
    assert stopped.value.code == 2
    assert "not a labelled set" in capsys.readouterr().err


def test_a_case_packs_logs_in_subfolders_but_never_its_truth(tmp_path) -> None:
    """Held-out cases keep the posted files under `logs/`; the archive keeps that path and
    leaves the answer out. A file named like the truth deeper down is a log, not the answer."""
    case = tmp_path / "cases" / "h01"
    (case / "logs" / "node1").mkdir(parents=True)
    (case / "truth.json").write_text('{"category": "hccl"}', encoding="utf-8")
    (case / "logs" / "train.log").write_text("EI0006 Getting socket times out\n", encoding="utf-8")
    (case / "logs" / "node1" / "truth.json").write_text("{}", encoding="utf-8")
    with (
        as_bundle(Sample("h01", case, {"category": "hccl"})) as archive,
        tarfile.open(archive) as tar,
    ):
        names = sorted(tar.getnames())
    assert names == ["h01/logs/node1/truth.json", "h01/logs/train.log"]


def _report(lasts: dict[int, str | None], common: str | None) -> dict:
    ranks = [{"rank": r, "last_checkpoint_qualified": last} for r, last in lasts.items()]
    return {"ranks": ranks, "correlation": {"last_common_checkpoint_qualified": common}}


CHECKPOINT_TRUTH = {
    "per_rank_last_checkpoint_qualified": {"0": "layer 2 / norm passed", "1": None},
    "last_common_checkpoint_qualified": None,
}


def test_checkpoints_are_right_when_every_rank_and_the_common_one_match() -> None:
    report = _report({0: "layer 2 / norm passed", 1: None}, None)
    assert _checkpoints_ok(CHECKPOINT_TRUTH, report) is True


def test_checkpoints_are_wrong_when_one_rank_stops_in_another_layer() -> None:
    report = _report({0: "layer 1 / norm passed", 1: None}, None)
    assert _checkpoints_ok(CHECKPOINT_TRUTH, report) is False
    assert _checkpoints_ok({"category": "hccl"}, report) is None
