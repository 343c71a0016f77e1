"""Scoring several labelled sets at once: each set keeps its own figures, and the pooled
line and reliability table count every case once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from analyzers.eval import main, pooled, render, render_sets
from analyzers.scoring import Outcome, Score


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
