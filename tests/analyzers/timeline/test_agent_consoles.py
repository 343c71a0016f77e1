"""A torchrun agent's console kept under a name the layout does not know (`node-0/agent.log`)
is read as the launcher's when the ranks' own files lie beside it.

The bundles are written in the shape of a real two-node run (torch 2.13, gloo, two agents with
`--nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --log-dir logs`, each agent's console
redirected to `<node>/agent.log`): global rank 2 blocks on a lock its helper thread never
releases, ranks 0, 1 and 3 time out in gloo after 6 s, and each agent stops its remaining
child with SIGTERM and reports the child that failed.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze
from tests.analyzers.excerpts import assert_reads

TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 6000ms for recv operation to complete"
)
STEPS = ["prefill start: 8 tokens", "  norm passed", "  attention passed", "  MoE passed"]
STEPS += ["layer 0 passed", "  norm passed"]


def _stdout(node: int, rank: int, failed: bool) -> str:
    head = f"[2026-12-05 01:46:2{rank},{100 + rank:03d}] [INFO] [node{node}|rank={rank}]"
    lines = [f"{head} init process group: backend=gloo rank={rank} world_size=4 node={node}"]
    lines += [f"{head} {step}" for step in STEPS]
    if failed:
        lines += [
            f"[2026-12-05 01:46:30,217] [ERROR] [node{node}|rank={rank}] model run failed",
            "Traceback (most recent call last):",
            '  File "/work/jobs/pretrain/train.py", line 194, in main',
            "    dist.all_reduce(stat)  # sequence-parallel statistics sync",
            TIMEOUT,
        ]
    return "\n".join(lines) + "\n"


def _stderr(rank: int, failed: bool) -> str:
    if not failed:
        return ""
    return (
        f"[rank{rank}]: Traceback (most recent call last):\n"
        f'[rank{rank}]:   File "/work/jobs/pretrain/train.py", line 194, in main\n'
        f"[rank{rank}]:     dist.all_reduce(stat)  # sequence-parallel statistics sync\n"
        f"[rank{rank}]: {TIMEOUT}\n"
    )


def _agent(pid: int, stopped: tuple[int, int], failed: tuple[int, int], second: int) -> str:
    (g_stop, l_stop), (g_fail, l_fail) = stopped, failed
    api = "torch/distributed/elastic/multiprocessing/api.py"
    return (
        f"W1205 01:46:{second}.899000 {pid} {api}:1028] Sending process {pid + 73} closing signal SIGTERM\n"
        f"E1205 01:46:{second}.963000 {pid} {api}:1002] failed (exitcode: 1) local_rank: {l_fail} "
        f"(pid: {pid + 74}) of binary: /usr/bin/python3\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/bin/torchrun", line 8, in <module>\n'
        "    sys.exit(main())\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\n"
        "/work/jobs/pretrain/train.py FAILED\n"
        "------------------------------------------------------------\n"
        "Failures:\n"
        "[1]:\n"
        f"  time      : 2026-12-05_01:46:{second}\n"
        "  host      : localhost\n"
        f"  rank      : {g_stop} (local_rank: {l_stop})\n"
        f"  exitcode  : -15 (pid: {pid + 73})  (SIGTERM)\n"
        "  error_file: <N/A>\n"
        f"  traceback : Signal 15 (SIGTERM) received by PID {pid + 73}\n"
        "------------------------------------------------------------\n"
        "Root Cause (first observed failure):\n"
        "[0]:\n"
        f"  time      : 2026-12-05_01:46:{second}\n"
        "  host      : localhost\n"
        f"  rank      : {g_fail} (local_rank: {l_fail})\n"
        f"  exitcode  : 1 (pid: {pid + 74}) \n"
        "  error_file: <N/A>\n"
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
        "============================================================\n"
    )


def _two_nodes(root: Path, console: str) -> Path:
    job = root / "pretrain-2n"
    nodes = {"n0": (0, "job_gwhdikn8", 12900, 31), "n1": (1, "job_ozumy367", 12910, 32)}
    for name, (node, tree, pid, second) in nodes.items():
        for local in (0, 1):
            rank = 2 * node + local
            folder = job / name / "logs" / tree / "attempt_0" / str(local)
            folder.mkdir(parents=True)
            (folder / "stdout.log").write_text(_stdout(node, rank, rank != 2))
            (folder / "stderr.log").write_text(_stderr(rank, rank != 2))
        (job / name / console).write_text(_agent(pid, (2 * node, 0), (2 * node + 1, 1), second))
    return job


def test_an_agent_console_named_freely_is_the_launchers(tmp_path: Path) -> None:
    report = analyze(_two_nodes(tmp_path, "agent.log"), AnalyzeOptions(workers=1))
    diagnosis = report.diagnosis
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting 6000ms")
    assert diagnosis.culprit_ranks == [2]


def test_the_same_console_named_launcher_log_reads_alike(tmp_path: Path) -> None:
    report = analyze(_two_nodes(tmp_path, "launcher.log"), AnalyzeOptions(workers=1))
    assert report.diagnosis.category == "hccl"
    assert report.diagnosis.culprit_ranks == [2]


def test_a_lone_pasted_console_stays_the_ranks(tmp_path: Path) -> None:
    """Counterexample: a single file with the agent's records and nothing of the ranks' own
    beside it keeps being read as the ranks' log."""
    from analyzers.core.types import FileInfo, FileKind, FileScan
    from analyzers.timeline.agent_consoles import mark_agent_consoles

    record = {"rank": 1, "local_rank": 1, "exitcode": 1}
    lone = FileScan(
        FileInfo("job/agent.log", FileKind.RANK_LOG, None), facts={"elastic_failures": [record]}
    )
    mark_agent_consoles([lone])
    assert lone.info.kind == FileKind.RANK_LOG
    ranked = FileScan(FileInfo("job/logs/attempt_0/1/stdout.log", FileKind.RANK_LOG, 1))
    mark_agent_consoles([lone, ranked])
    assert lone.info.kind == FileKind.LAUNCHER
    assert ranked.info.kind == FileKind.RANK_LOG
