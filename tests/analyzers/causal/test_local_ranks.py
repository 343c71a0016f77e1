"""A launcher's local ranks read as the global ranks they are: through its own agent's
report, or any agent's when only one ran."""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import CLOSED


def _agent_log(
    pid: int, failed_local: int, code: int, records: list[tuple[int, int, int]], second: int = 12
) -> str:
    """A torchrun agent's launcher.log: its `failed (exitcode: N) local_rank: L` line and the
    ChildFailedError summary, the first record being the root cause."""
    head = (
        f"E1203 16:54:{second}.136000 {pid} torch/distributed/elastic/multiprocessing/api.py:1002] "
        f"failed (exitcode: {code}) local_rank: {failed_local} (pid: {pid + 10 + failed_local}) "
        "of binary: /opt/venv/bin/python\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\n"
        "/home/user/llm-infer/infer.py FAILED\n"
        "------------------------------------------------------------\n"
    )

    def block(rank: int, local: int, exitcode: int) -> str:
        return (
            f"  time      : 2026-12-03_16:54:12\n  host      : localhost\n"
            f"  rank      : {rank} (local_rank: {local})\n"
            f"  exitcode  : {exitcode} (pid: {pid + 10 + local})\n  error_file: <N/A>\n"
            "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
        )

    blocks = ["Failures:\n"]
    blocks += [f"[{i}]:\n" + block(*record) for i, record in enumerate(records[1:], 1)]
    blocks.append("------------------------------------------------------------\n")
    blocks.append("Root Cause (first observed failure):\n[0]:\n" + block(*records[0]))
    return head + "".join(blocks) + "============================================================\n"


def _rank_lines(rank: int, error: str | None) -> str:
    lines = [
        f"2026-12-03 16:54:08,{100 + rank:03d} [rank{rank}] INFO init process group: "
        f"backend=gloo rank={rank} world_size=4 master=localhost:37033 timeout=10s",
        f"2026-12-03 16:54:08,737 [rank{rank}] INFO  norm passed",
    ]
    if error:
        lines.append(
            f"2026-12-03 16:54:12,{500 + rank:03d} [rank{rank}] ERROR model run failed: {error}"
        )
    return "".join(line + "\n" for line in lines)


def test_a_second_agents_launcher_names_its_own_local_rank(tmp_path: Path) -> None:
    """Labelling guide, "A second launcher agent numbers its ranks from 0": node1's agent
    says its local rank 0 exited with 3, and that rank (global 2, by its own start line) left
    no error line; node1's own summary maps local 0 to global 2, while node0's summary also has
    a local rank 0 (global 0, stopped by its agent) and node0's own report came a second later."""
    job = tmp_path / "job-0ab3"
    for node, text in (
        ("node0", _agent_log(19553, 1, 1, [(1, 1, 1), (0, 0, -15)], second=13)),
        ("node1", _agent_log(19600, 0, 3, [(2, 0, 3), (3, 1, -15)])),
    ):
        (job / node).mkdir(parents=True)
        (job / node / "launcher.log").write_text(text, encoding="utf-8")
    for node, local, rank in (("node0", 0, 0), ("node0", 1, 1), ("node1", 0, 2), ("node1", 1, 3)):
        folder = job / node / "torchrun_logs" / f"job-0ab3_{node}x" / "attempt_0" / str(local)
        folder.mkdir(parents=True)
        (folder / "stderr.log").write_text(
            _rank_lines(rank, CLOSED if rank < 2 else None), encoding="utf-8"
        )
    report = analyze(job, AnalyzeOptions(workers=1))
    assert "exitcode: 3" in report.diagnosis.first_error.text
    assert report.diagnosis.culprit_ranks == [2]


def test_one_agents_launcher_maps_local_ranks_through_any_report(tmp_path: Path) -> None:
    """Counterexample: with one agent the summary is the only map, as before."""
    job = tmp_path / "job-7d5d"
    job.mkdir()
    (job / "launcher.log").write_text(
        _agent_log(26576, 1, 3, [(1, 1, 3), (0, 0, -15)]), encoding="utf-8"
    )
    report = analyze(job, AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [1]
