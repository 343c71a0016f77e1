"""The last checkpoint all workers reached when the workers' ranks are unknown.

The stdout below is shaped like a multiprocessing driver's: four `(Worker pid=N)` workers that
never state their rank print plain progress lines into one file.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.pipeline import analyze

_PIDS = (5120, 5121, 5122, 5123)
_LAYER = [" norm passed", " attention passed", " MoE passed"]


def _progress(pid: int, layers: int, extra: list[str]) -> list[str]:
    texts = ["load weights passed", "prefill start: 8 tokens"]
    for layer in range(layers):
        texts += [*_LAYER, f"layer {layer} passed"]
    return [f"(Worker pid={pid}) {text}" for text in [*texts, *extra]]


def _run(tmp_path: Path, lines: list[str]) -> Report:
    head = "starting engine: model=toy tensor_parallel_size=4 workers=4"
    (tmp_path / "stdout.log").write_text("\n".join([head, *lines]) + "\n", encoding="utf-8")
    return analyze(tmp_path, AnalyzeOptions(workers=1))


def test_the_last_checkpoint_every_worker_reached(tmp_path: Path) -> None:
    lines = []
    for pid in _PIDS:
        extra = [" norm passed"] if pid == _PIDS[2] else [" norm passed", " attention passed"]
        lines += _progress(pid, 2, extra)
    lines.append("ERROR driver: no response from workers after 12 s; shutting down 4 workers")
    report = _run(tmp_path, lines)
    assert report.diagnosis.last_common_checkpoint_qualified == "layer 2 / norm passed"
    assert report.diagnosis.culprit_ranks == []  # the worker behind has no rank to name


def test_a_worker_with_no_checkpoint_leaves_no_common_one(tmp_path: Path) -> None:
    lines = []
    for pid in _PIDS[:3]:
        lines += _progress(pid, 2, [" norm passed"])
    lines.append(f"(Worker pid={_PIDS[3]}) starting")
    report = _run(tmp_path, lines)
    assert report.diagnosis.last_common_checkpoint_qualified is None
