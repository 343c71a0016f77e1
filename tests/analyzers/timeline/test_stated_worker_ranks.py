"""Ranks of serving workers whose process tag has no index (`(Worker pid=N)`,
`(VllmWorkerProcess pid=N)`): only what each process states about itself gives one.

The logs are written for these tests in the shape a multiprocessing driver leaves them: every
worker line, tracebacks included, prefixed with its tag in ONE combined stdout, vLLM-style
logging (`INFO MM-DD hh:mm:ss [file.py:N] ...`), the driver's own lines untagged, gloo's
lost-peer error on the survivors.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.formats.worker_tags import TagHints
from analyzers.pipeline import analyze

_PIDS = (4410, 4411, 4412, 4413)
_CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:{port}. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)
_SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"


def _w(tag: str, pid: int, text: str, level: str = "INFO") -> str:
    return f"({tag} pid={pid}) {level} 12-04 09:15:{pid % 60:02d} [serve.py:120] {text}"


def _raw(tag: str, pid: int, text: str) -> str:
    return f"({tag} pid={pid}) {text}"


def _start(tag: str, pid: int, rank: int, style: str) -> list[str]:
    if style == "vllm":
        said = [
            _w(
                tag,
                pid,
                f"world_size=4 rank={rank} local_rank={rank} "
                "distributed_init_method=tcp://127.0.0.1:41234 backend=gloo",
            )
        ]
    elif style == "init":
        said = [_w(tag, pid, f"init rank {rank} of 4")]
    else:
        said = []
    return [*said, _w(tag, pid, "load weights passed")]


def _layers(tag: str, pid: int, upto: list[str]) -> list[str]:
    return [_w(tag, pid, text) for text in ["prefill start: 8 tokens", *upto]]


_LAYER0 = [" norm passed", " attention passed", " MoE passed", "layer 0 passed"]


def _raises(tag: str, pid: int, error: str) -> list[str]:
    return [
        _raw(tag, pid, f"Process {tag}:"),
        _raw(tag, pid, "Traceback (most recent call last):"),
        _raw(tag, pid, '  File "/srv/engine/serve.py", line 125, in layer'),
        _raw(tag, pid, "    out = F.linear(q, wo[i])"),
        _raw(tag, pid, error),
    ]


def _run(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "stdout.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyze(tmp_path, AnalyzeOptions(workers=1))


def _one_shape_error(style: str, tag: str = "Worker") -> list[str]:
    lines = ["INFO 12-04 09:14:58 [serve.py:195] starting engine: tensor_parallel_size=4"]
    for rank, pid in enumerate(_PIDS):
        lines += _start(tag, pid, rank, style)
    for pid in _PIDS:
        lines += _layers(tag, pid, [*_LAYER0, " norm passed"])
    lines += _raises(tag, _PIDS[2], _SHAPE)
    for rank, pid in enumerate(_PIDS):
        if rank != 2:
            lines += _raises(tag, pid, _CLOSED.format(port=5000 + rank))
    return lines


def test_a_stated_rank_names_the_worker_that_failed_first(tmp_path: Path) -> None:
    report = _run(tmp_path, _one_shape_error("vllm"))
    assert report.diagnosis.culprit_ranks == [2]
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {rank: "layer 1 / norm passed" for rank in range(4)}


def test_the_init_line_of_a_v0_worker_process_states_its_rank(tmp_path: Path) -> None:
    report = _run(tmp_path, _one_shape_error("init", tag="VllmWorkerProcess"))
    assert report.diagnosis.culprit_ranks == [2]


def test_without_a_stated_rank_no_worker_is_named(tmp_path: Path) -> None:
    report = _run(tmp_path, _one_shape_error("none"))
    assert report.diagnosis.category == "shape_mismatch"
    assert report.diagnosis.culprit_ranks == []
    assert all(r.last_checkpoint_qualified is None for r in report.ranks)


def test_two_processes_stating_one_rank_are_not_ranked(tmp_path: Path) -> None:
    lines = _one_shape_error("vllm")
    lines.insert(1, _w("Worker", 4499, "world_size=4 rank=2 local_rank=2 backend=gloo"))
    report = _run(tmp_path, lines)
    two = next(r for r in report.ranks if r.rank == 2)
    assert two.first_error is None  # the shape error's process is not given rank 2
    assert two.last_checkpoint_qualified is None


def test_the_drivers_exit_line_for_a_pid_names_that_workers_rank(tmp_path: Path) -> None:
    lines = ["INFO 12-04 09:14:58 [serve.py:195] starting engine: tensor_parallel_size=4"]
    for rank, pid in enumerate(_PIDS):
        lines += _start("Worker", pid, rank, "init")
    for pid in _PIDS:
        lines += _layers("Worker", pid, [*_LAYER0, " norm passed", " attention passed"])
    lines.append(
        f"ERROR 12-04 09:15:30 [serve.py:222] worker process pid={_PIDS[3]} exited with code -11"
    )
    for rank, pid in enumerate(_PIDS[:2]):
        lines += _raises("Worker", pid, _CLOSED.format(port=5000 + rank))
    lines.append(f"WARNING 12-04 09:15:33 [serve.py:229] terminating worker process pid={_PIDS[2]}")
    report = _run(tmp_path, lines)
    assert report.diagnosis.category == "device_fault"
    assert report.diagnosis.culprit_ranks == [3]
    first = report.diagnosis.first_error
    assert first is not None
    assert "exited with code -11" in first.text


def test_a_driver_that_heard_nothing_stopped_a_stalled_job(tmp_path: Path) -> None:
    lines = ["INFO 12-04 09:14:58 [serve.py:195] starting engine: tensor_parallel_size=4"]
    for rank, pid in enumerate(_PIDS):
        lines += _start("Worker", pid, rank, "vllm")
    for rank, pid in enumerate(_PIDS):
        lines += _layers("Worker", pid, _LAYER0 + ([] if rank == 1 else [" norm passed"]))
    lines.append(
        "ERROR 12-04 09:16:30 [serve.py:237] no response from workers after 12 s; "
        "shutting down 4 worker processes"
    )
    report = _run(tmp_path, lines)
    assert report.diagnosis.category == "hang"
    assert report.diagnosis.culprit_ranks == [1]


def test_only_the_rank_a_tagged_process_states_about_itself_is_read() -> None:
    block = "\n".join(
        [
            _w("Worker", 71, "init rank 3 of 4"),
            _w("Worker", 72, "local_rank=1 ready"),  # a local rank is not the rank
            _w("Worker", 73, "[Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms"),
            "INFO 12-04 09:15:00 [serve.py:10] driver: world_size=4 rank=0",  # untagged
            _w("Worker", 71, "world_size=4 rank=2"),  # only the first statement counts
        ]
    ).encode()
    hints = TagHints()
    hints.read(block, block.lower())
    assert hints.stated == {"vllm:pid=71": {3}}
    assert hints.pids["vllm:pid=72"] == {72}


# Prefixes log collectors put before every line of the driver's stdout (`formats.outer_prefix`)
COLLECTORS = {
    "kubectl": "2026-12-04T09:15:{second:02d}.{n:09d}Z ",  # kubectl logs --timestamps
    "journal": "Dec 04 09:15:{second:02d} node7 python3[4121]: ",  # journalctl -u serve
    "compose": "serve-1  | ",  # docker compose logs
    "srun": "0: ",  # srun --label
    "pdsh": "node7: ",
    "ray": "(RayWorkerWrapper pid=4121, ip=10.0.0.7) ",  # a Ray actor relaying the worker
}


def _collected(lines: list[str], outer: str) -> list[str]:
    return [outer.format(second=n % 60, n=n) + line for n, line in enumerate(lines)]


@pytest.mark.parametrize("outer", COLLECTORS.values(), ids=COLLECTORS.keys())
def test_a_rank_stated_behind_a_collector_s_prefix_is_read(outer: str) -> None:
    """`2026-12-04T09:15:01.000000001Z (Worker pid=71) INFO ... init rank 3 of 4`: the
    statement counts as it does without the collector's prefix."""
    block = "\n".join(
        _collected(
            [
                _w("Worker", 71, "init rank 3 of 4"),
                _w("Worker", 72, "world_size=4 rank=1 local_rank=1 backend=gloo"),
                "INFO 12-04 09:15:00 [serve.py:10] driver: world_size=4 rank=0",  # untagged
            ],
            outer,
        )
    ).encode()
    hints = TagHints()
    hints.read(block, block.lower())
    assert hints.stated == {"vllm:pid=71": {3}, "vllm:pid=72": {1}}


@pytest.mark.parametrize("outer", COLLECTORS.values(), ids=COLLECTORS.keys())
def test_stated_ranks_behind_a_collector_s_prefix_name_the_culprit(
    tmp_path: Path, outer: str
) -> None:
    report = _run(tmp_path, _collected(_one_shape_error("vllm"), outer))
    assert report.diagnosis.culprit_ranks == [2]
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {rank: "layer 1 / norm passed" for rank in range(4)}


def test_the_drivers_exit_line_relayed_by_a_ray_actor_names_the_workers_rank(
    tmp_path: Path,
) -> None:
    """A Ray actor's tag in front of the driver's line is no worker's: the pid the line's own
    words name still says whose exit it reports."""
    lines = ["INFO 12-04 09:14:58 [serve.py:195] starting engine: tensor_parallel_size=4"]
    for rank, pid in enumerate(_PIDS):
        lines += _start("Worker", pid, rank, "init")
    for pid in _PIDS:
        lines += _layers("Worker", pid, [*_LAYER0, " norm passed", " attention passed"])
    lines.append(
        f"ERROR 12-04 09:15:30 [serve.py:222] worker process pid={_PIDS[3]} exited with code -11"
    )
    for rank, pid in enumerate(_PIDS[:2]):
        lines += _raises("Worker", pid, _CLOSED.format(port=5000 + rank))
    report = _run(tmp_path, _collected(lines, COLLECTORS["ray"]))
    assert report.diagnosis.culprit_ranks == [3]
