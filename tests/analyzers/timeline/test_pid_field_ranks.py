"""Ranks of processes that share one log file and are told apart only by logging's
`%(process)d` field (`2026-12-05 02:58:23,929 pid=17350 INFO infer: ...`, or bare:
`2026-12-05 02:58:23,929 17350 INFO ...`): the rank each
process states on its own start line (`init process group: ... rank=1 world_size=4`) is the
rank of all its lines.

The log is written in the shape four gloo ranks leave it when each adds a FileHandler on the
same file with `%(asctime)s pid=%(process)d %(levelname)s %(name)s: %(message)s`: lines
interleaved, `logger.exception`'s traceback untagged under its record, the culprit's shape
error first and its peers' lost connections after it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.formats.lines import parse_line
from analyzers.pipeline import analyze

_PIDS = (17349, 17350, 17351, 17352)
_PARTS = ("  norm passed", "  attention passed", "  MoE passed")
_CLOSED = (
    "model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:20672. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)
_SHAPE = "mat1 and mat2 shapes cannot be multiplied (8x32 and 24x32)"


_FORMATS = {
    "pid-field": "2026-12-05 02:58:{second:02d},929 pid={pid} {level} infer: {text}",
    "bare-pid": "2026-12-05 02:58:{second:02d},929 {pid} {level} {text}",
}
_FORMAT = _FORMATS["pid-field"]


def _line(second: int, pid: int, text: str, level: str = "INFO") -> str:
    return _FORMAT.format(second=second, pid=pid, level=level, text=text)


def _traceback(error: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        '  File "/srv/job/toy.py", line 142, in layer_fwd',
        "    x = maybe_fault(layer, 'attention', x)",
        f"RuntimeError: {error}",
    ]


def _shared_log(*, state_ranks: bool = True) -> list[str]:
    lines: list[str] = []
    for rank, pid in enumerate(reversed(_PIDS)):  # processes start in any order
        rank = len(_PIDS) - 1 - rank
        said = f"rank={rank} world_size=4" if state_ranks else "world_size=4"
        lines.append(_line(20, pid, f"init process group: backend=gloo {said}"))
        lines.append(_line(20, pid, "prefill start"))
    for layer in range(2):
        for part in (*_PARTS, f"layer {layer} passed"):
            lines += [_line(21, pid, part) for pid in _PIDS]
    lines += [_line(22, pid, _PARTS[0]) for pid in _PIDS]
    lines += [_line(23, _PIDS[1], f"model run failed: {_SHAPE}", "ERROR"), *_traceback(_SHAPE)]
    for pid in (_PIDS[0], _PIDS[2], _PIDS[3]):
        closed = _CLOSED.removeprefix("model run failed: ")
        lines += [_line(24, pid, _CLOSED, "ERROR"), *_traceback(closed)]
    return lines


def _run(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "infer.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyze(tmp_path, AnalyzeOptions(workers=1))


def test_the_pid_field_is_the_lines_worker_tag() -> None:
    line = parse_line("2026-12-05 02:58:23,929 pid=17350 INFO infer:   norm passed")
    assert (line.level, line.pid, line.message) == ("INFO", 17350, "  norm passed")
    assert line.tags["worker"] == "process:pid=17350"
    bare = parse_line("2026-12-05 02:58:23.929 pid=88 WARNING layer 2 passed")
    assert (bare.level, bare.pid, bare.message) == ("WARNING", 88, "layer 2 passed")


def test_a_bare_pid_column_is_the_lines_worker_tag() -> None:
    line = parse_line("2026-12-05 07:08:03,363 10684 ERROR model run failed: out of memory")
    assert (line.level, line.pid, line.message) == (
        "ERROR",
        10684,
        "model run failed: out of memory",
    )
    assert line.tags["worker"] == "process:pid=10684"
    thread = parse_line("2026-12-05 07:08:03,363 140651418909568 INFO layer 2 passed")
    assert thread.pid is None  # a thread id's digits are no pid


@pytest.mark.parametrize("fmt", sorted(_FORMATS))
def test_each_pid_gets_the_rank_its_process_stated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.setitem(globals(), "_FORMAT", _FORMATS[fmt])
    report = _run(tmp_path, _shared_log()).to_dict()
    diagnosis = report["diagnosis"]
    assert diagnosis["category"] == "shape_mismatch"
    assert diagnosis["culprit_ranks"] == [1]
    assert diagnosis["first_error"]["rank"] == 1
    assert _SHAPE in diagnosis["first_error"]["text"]
    ranks = {entry["rank"]: entry["last_checkpoint_qualified"] for entry in report["ranks"]}
    assert ranks == {rank: "layer 2 / norm passed" for rank in range(4)}
    assert report["correlation"]["last_common_checkpoint_qualified"] == "layer 2 / norm passed"


def test_pids_that_state_no_rank_get_none(tmp_path: Path) -> None:
    report = _run(tmp_path, _shared_log(state_ranks=False)).to_dict()
    assert report["diagnosis"]["culprit_ranks"] == []
    assert all(entry["last_checkpoint_qualified"] is None for entry in report["ranks"])
