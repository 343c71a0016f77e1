"""Jobs packed the way a cluster's log collector packs them: one directory per node, named by
its host (`node-2/`, `10.0.0.12/`, `worker-1/`), holding files whose names carry no rank
(`stdout.txt`, `output.log`, a pod's `<pod-name>.log`) beside the node's environment dumps.

The rank comes from what the lines say: a plain-print log that states its rank before its
first checkpoint (`rank=2 world_size=4`) is that rank's (`analyzers.scan.stated_rank`); a
job's own Formatter with bracketed fields (`[ts][toymoe][r1][INFO]`) and logfmt lines
(`ts=.. level=info rank=1 msg=".."`) give the rank of every line. A bundle whose scheduler
record says which task was killed (`srun: error: node-2: task 5: Killed`) names the culprit:
docs/labelling.md#a-rank-killed-for-host-memory. Values are our own, in the real formats.
"""

from __future__ import annotations

from itertools import zip_longest
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

STEPS = ["prefill start: 8 tokens"] + [
    line
    for layer in range(2)
    for line in ("  norm passed", "  attention passed", "  MoE passed", f"layer {layer} passed")
]
ENV = "HOSTNAME={host}\nWORLD_SIZE=4\nMASTER_ADDR=10.0.0.11\nMASTER_PORT=29500\n"
NVSMI = "| NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: 12.4 |\n|  No running processes found |\n"
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:1946. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF!"
)
SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"


def _pack(directory: Path, files: dict[str, str]) -> Path:
    return pack(directory / "collected.tar.gz", files, "collected-3fa9c1")


def _node(host: str, name: str, text: str) -> dict[str, str]:
    return {
        f"{host}/{name}": text,
        f"{host}/env.txt": ENV.format(host=host),
        f"{host}/nvidia-smi.txt": NVSMI,
    }


def _report(tmp_path: Path, files: dict[str, str]) -> dict:
    return analyze(_pack(tmp_path, files), AnalyzeOptions(workers=1)).to_dict()


def _last(report: dict) -> dict[int, str | None]:
    return {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}


def _plain(rank: int, stop: int, error: str | None) -> str:
    lines = [f"rank={rank} world_size=4 local_rank=0 master=10.0.0.11:29500"]
    lines += STEPS[:stop]
    if error:
        lines += [
            f"[rank{rank}]: Traceback (most recent call last):",
            f'[rank{rank}]:   File "/opt/job/decoder.py", line 102, in forward',
            f"[rank{rank}]: {error}",
        ]
    return "\n".join(lines) + "\n"


def test_plain_prints_under_host_directories_are_the_rank_each_file_states(tmp_path):
    files: dict[str, str] = {}
    for rank in range(4):
        error = SHAPE if rank == 2 else CLOSED
        files |= _node(f"node-{rank}", "stdout.txt", _plain(rank, 6, error))
    report = _report(tmp_path, files)
    assert _last(report) == {r: "layer 1 / norm passed" for r in range(4)}
    assert report["diagnosis"]["category"] == "shape_mismatch"
    assert report["diagnosis"]["culprit_ranks"] == [2]


def test_a_rank_named_only_after_the_progress_does_not_own_a_shared_file(tmp_path):
    """Counterexample: ranks 0-1 share one stdout with plain prints; only rank 1's traceback
    names a rank, so the file's checkpoints are nobody's in particular, not rank 1's."""
    shared = "\n".join(STEPS[:6] + STEPS[:6]) + f"\n[rank1]: {SHAPE}\n"
    files = _node("node-0", "stdout.txt", shared)
    files |= _node("node-1", "stdout.txt", _plain(2, 6, CLOSED))
    files |= _node("node-1", "stdout-b.txt", _plain(3, 6, CLOSED))
    last = _last(_report(tmp_path, files))
    assert last.get(1) is None
    assert last[2] == last[3] == "layer 1 / norm passed"


def _own(rank: int, stop: int) -> list[str]:
    return [
        f"[2026-12-04 18:35:11.{100 + i:03d}][toymoe][r{rank}][INFO] {s}"
        for i, s in enumerate(STEPS[:stop])
    ]


def _logfmt(rank: int, stop: int) -> list[str]:
    return [
        f'ts=2026-12-04T18:35:11.{100 + i:03d}Z level=info rank={rank} msg="{s}"'
        for i, s in enumerate(STEPS[:stop])
    ]


def test_a_jobs_bracketed_formatter_gives_each_interleaved_line_its_rank(tmp_path):
    files: dict[str, str] = {}
    for node in range(2):
        a, b = _own(2 * node, 9 if node else 8), _own(2 * node + 1, 9)
        files |= _node(
            f"worker-{node}",
            "main.log",
            "\n".join(x for pair in zip_longest(a, b, fillvalue="") for x in pair if x) + "\n",
        )
    last = _last(_report(tmp_path, files))
    assert last == {
        0: "layer 1 / MoE passed",
        1: "layer 1 passed",
        2: "layer 1 passed",
        3: "layer 1 passed",
    }


def test_logfmt_pod_logs_give_the_rank_and_the_unquoted_message(tmp_path):
    files: dict[str, str] = {}
    for rank in range(4):
        body = _logfmt(rank, 9 if rank != 3 else 7)
        files |= _node(
            f"gpu-node-{rank // 2}", f"toymoe-7c9f4-{rank}x2lp.log", "\n".join(body) + "\n"
        )
    report = _report(tmp_path, files)
    last = _last(report)
    assert last[3] == "layer 1 / attention passed"
    assert last[0] == last[1] == last[2] == "layer 1 passed"


def test_srun_names_the_task_it_saw_killed(tmp_path):
    files: dict[str, str] = {}
    for node in range(2):
        lines = []
        for rank in (2 * node, 2 * node + 1):
            lines += [
                f"2026-12-04 18:35:00,{100 + i:03d} [rank{rank}] INFO toymoe: {s}"
                for i, s in enumerate(STEPS[:6])
            ]
            if rank != 3:
                lines.append(
                    f"2026-12-04 18:35:01,262 [rank{rank}] ERROR toymoe: model run failed: {CLOSED}"
                )
        files |= _node(f"10.0.0.{11 + node}", "output.log", "\n".join(lines) + "\n")
    files["slurm-48213.out"] = (
        "srun: error: 10.0.0.12: task 3: Killed\n"
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        "srun: error: 10.0.0.12: task 2: Exited with exit code 1\n"
        "srun: error: 10.0.0.11: task 0: Terminated\n"
    )
    diagnosis = _report(tmp_path, files)["diagnosis"]
    assert diagnosis["category"] == "device_fault"
    assert diagnosis["culprit_ranks"] == [3]
    assert "task 3: Killed" in diagnosis["first_error"]["text"]
