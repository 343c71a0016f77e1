"""Ranks read from serving frameworks' process tags (vLLM workers, SGLang schedulers).

The logs below are written for these tests in the real formats: vLLM v1 worker lines
`(Worker_DP1_TP0_EP2 pid=N) ERROR MM-DD hh:mm:ss [file.py:N] ...`, engine core lines, SGLang's
`[YYYY-MM-DD hh:mm:ss TP1] ...` scheduler lines, with CANN error text in torch_npu's shape.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.formats.lines import parse_line
from analyzers.formats.worker_tags import Layout, rank_of
from analyzers.pipeline import analyze

_AT = "[multiproc_executor.py:527]"
_AICORE = (
    "E39999[PID: {pid}] 2026-05-14-09:12:40.118.420 (E39999):  The error from device(chipId:{dev},"
    " dieId:0), serial number is 3, there is an aicore error exception, core id is 11, error code"
    " = 0, dump info: pc start: 0x12c0a7700000, current: 0x12c0a7700a44, vec error info: 0x0,"
    " mte error info: 0x4120000c9, ifu error info: 0x0."
)
_NOTIFY = (
    "EI0002: [PID: {pid}] 2026-05-14-09:42:41.402.113 The wait execution of the Notify register"
    " times out. Reason: The Notify register has not received the Notify record from remote rank"
    " [{peer}]."
)


def _worker(tag: str, pid: int, when: str, text: str, level: str = "ERROR") -> str:
    return f"({tag} pid={pid}) {level} 05-14 {when} {_AT} {text}"


def _fails_first(tag: str, pid: int, dev: int) -> list[str]:
    """A worker whose kernel raises an AI Core exception."""
    return [
        _worker(tag, pid, "09:12:40", "WorkerProc hit an exception."),
        _worker(tag, pid, "09:12:40", "RuntimeError: The Inner error is reported as above."),
        _worker(tag, pid, "09:12:40", "E39999: Inner Error!"),
        _worker(tag, pid, "09:12:40", _AICORE.format(pid=pid, dev=dev)),
    ]


def _cascades(tag: str, pid: int, peer: int) -> list[str]:
    """A worker that waits for the dead one in a collective and times out later."""
    return [
        _worker(tag, pid, "09:42:41", "RuntimeError: HcclAllreduce execute failed, code EI0002."),
        _worker(tag, pid, "09:42:41", _NOTIFY.format(pid=pid, peer=peer)),
    ]


def _run(tmp_path: Path, lines: list[str], name: str = "server.log") -> Report:
    (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyze(tmp_path, AnalyzeOptions(workers=1))


def _statuses(report: Report) -> dict[int, str]:
    return {summary.rank: str(summary.status) for summary in report.ranks}


def test_vllm_tp4_worker_that_fails_first_is_the_culprit(tmp_path: Path) -> None:
    config = (
        "INFO 05-14 09:10:01 [core.py:75] Initializing a V1 LLM engine (v0.9.2) with config: "
        "model='/models/demo-32b', tensor_parallel_size=4, pipeline_parallel_size=1"
    )
    loaded = [
        _worker(f"Worker_TP{tp}", 3101 + tp, "09:10:31", "Loading weights took 9.8 s", "INFO")
        for tp in range(4)
    ]
    lines = [config, *loaded, *_fails_first("Worker_TP2", 3103, 2)]
    for tp in (0, 1, 3):
        lines += _cascades(f"Worker_TP{tp}", 3101 + tp, peer=2)
    lines.append("ERROR 05-14 09:42:43 [core.py:586] EngineCore encountered a fatal error.")
    report = _run(tmp_path, lines)
    assert report.diagnosis.culprit_ranks == [2]
    assert report.diagnosis.first_error is not None
    assert report.diagnosis.first_error.rank == 2
    assert _statuses(report) == {0: "error", 1: "error", 2: "error", 3: "error"}


def test_vllm_dp2_tp2_with_expert_parallel_uses_the_ep_index(tmp_path: Path) -> None:
    lines = [
        "(EngineCore_DP0 pid=2001) INFO 05-14 09:10:00 [core.py:75] engine ready",
        "(EngineCore_DP1 pid=2002) INFO 05-14 09:10:00 [core.py:75] engine ready",
        *_fails_first("Worker_DP1_TP1_EP3", 3204, 3),
        *_cascades("Worker_DP0_TP0_EP0", 3201, peer=3),
        *_cascades("Worker_DP0_TP1_EP1", 3202, peer=3),
        *_cascades("Worker_DP1_TP0_EP2", 3203, peer=3),
    ]
    report = _run(tmp_path, lines)
    assert report.diagnosis.culprit_ranks == [3]
    assert set(_statuses(report)) == {0, 1, 2, 3}


def test_vllm_dp_without_ep_needs_the_stated_tp_size(tmp_path: Path) -> None:
    lines = [
        "INFO 05-14 09:10:01 [arg_utils.py:1040] data_parallel_size=2, tensor_parallel_size=2",
        *_fails_first("Worker_DP1_TP0", 3203, 2),
        *_cascades("Worker_DP0_TP1", 3202, peer=2),
    ]
    report = _run(tmp_path, lines)
    assert report.diagnosis.culprit_ranks == [2]  # 1 * 2 + 0


def test_sglang_scheduler_tp_index_is_the_rank(tmp_path: Path) -> None:
    lines = [
        "[2026-05-14 09:10:02 TP0] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16",
        "[2026-05-14 09:10:02 TP1] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16",
        "[2026-05-14 09:12:40 TP1] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2210, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        "RuntimeError: The Inner error is reported as above.",
        "[2026-05-14 09:12:41] Received sigquit from a child process. It usually means the child"
        " failed.",
    ]
    report = _run(tmp_path, lines)
    by_rank = {summary.rank: summary for summary in report.ranks}
    assert set(by_rank) == {0, 1}
    assert by_rank[1].status == "error"
    assert by_rank[1].first_error is not None
    assert by_rank[1].first_error.line == 3  # the scheduler's tagged line, not the traceback


def test_engine_core_lines_have_no_rank(tmp_path: Path) -> None:
    lines = [
        "(EngineCore_DP0 pid=2001) ERROR 05-14 09:12:40 [core.py:586] EngineCore hit an exception.",
        "(EngineCore_DP0 pid=2001) ERROR 05-14 09:12:40 [core.py:586] "
        + _AICORE.format(pid=1, dev=0),
    ]
    assert parse_line(lines[0]).rank is None
    report = _run(tmp_path, lines)
    assert report.diagnosis.culprit_ranks == []
    assert report.ranks == []


def test_tp_index_with_dp_above_zero_and_no_tp_size_stays_unknown(tmp_path: Path) -> None:
    lines = [
        "(EngineCore_DP1 pid=2002) INFO 05-14 09:10:00 [core.py:75] engine ready",
        *_fails_first("Worker_DP1_TP1", 3204, 3),
        *_cascades("VllmWorker TP1", 3301, peer=3),  # a bare TP index next to DP group 1
    ]
    report = _run(tmp_path, lines)
    assert report.diagnosis.culprit_ranks == []
    assert report.ranks == []


@pytest.mark.parametrize(
    ("tag", "layout", "rank"),
    [
        ("vllm:DP0_TP5_EP5", None, 5),
        ("vllm:DP2_TP0_EP8", None, 8),
        ("vllm:DP0_TP3", None, 3),
        ("vllm:TP3", None, None),  # whether DP > 0 exists is a fact of the bundle
        ("vllm:TP3", Layout(), 3),
        ("vllm:TP3", Layout(dp_above_zero=True), None),
        ("vllm:rank=2", Layout(), 2),
        ("vllm:rank=0", Layout(dp_above_zero=True), None),  # rank in DP group 1's executor
        ("vllm:DP1_TP3", Layout(tp_size=4, dp_above_zero=True), 7),
        ("vllm:DP1_TP3", Layout(dp_above_zero=True), None),
        ("vllm:DP3", Layout(dp_above_zero=True), 3),  # TP size 1 leaves TP out of the name
        ("vllm:PP1_TP2", Layout(tp_size=4), None),
        ("vllm:DP1_PP1_TP0_EP4", Layout(tp_size=4, dp_above_zero=True), None),
        ("vllm:", Layout(), None),
        ("vllm_engine:DP1", Layout(tp_size=4, dp_above_zero=True), None),
        ("sglang:TP3", Layout(), 3),
        ("sglang:DP0_TP3_EP3", None, 3),
        ("sglang:DP1_TP3", Layout(tp_size=4, dp_above_zero=True), None),
        ("sglang:DP1_TP3", Layout(dp_above_zero=True, tp_is_rank=frozenset({"sglang"})), 3),
    ],
)
def test_rank_of_tag(tag: str, layout: Layout | None, rank: int | None) -> None:
    assert rank_of(tag, layout) == rank


@pytest.mark.parametrize(
    ("text", "tag", "rank"),
    [
        ("(Worker_DP0_TP6_EP6 pid=51) ERROR 05-14 09:12:40 [x.py:1] boom", "vllm:DP0_TP6_EP6", 6),
        ("(VllmWorker TP1 pid=51) ERROR 05-14 09:12:40 [x.py:1] boom", "vllm:TP1", None),
        ("(EngineCore_1 pid=7) (VllmWorker rank=0 pid=51) ERROR boom", "vllm:rank=0", None),
        ("(EngineCore _DP3 pid=7) ERROR 05-14 09:12:40 [core.py:1] boom", "vllm_engine:DP3", None),
        ("(NPURayWorkerWrapper pid=66) RuntimeError: boom", None, None),
        # no index: told apart by the pid, ranked only by what the process states
        ("(Worker pid=51) ERROR 05-14 09:12:40 [x.py:1] boom", "vllm:pid=51", None),
        ("(VllmWorkerProcess pid=51) ERROR 05-14 09:12:40 [x.py:1] boom", "vllm:pid=51", None),
        (
            "[2026-05-14 09:12:40 DP1 TP3 EP3] Scheduler hit an exception:",
            "sglang:DP1_TP3_EP3",
            None,
        ),
    ],
)
def test_tags_read_from_lines(text: str, tag: str | None, rank: int | None) -> None:
    line = parse_line(text)
    assert (line.tags.get("worker"), line.rank) == (tag, rank)
