"""Ranks that die or hit a resource limit, in the layouts torchrun leaves behind.

docs/labelling.md#a-native-allocation-refused-with-bad_alloc: a bare `MemoryError` (a rank
under an address-space limit) is host memory refused, `oom`, and the peers' lost connections
are its cascade. docs/labelling.md#config-driver_env-or-weight_load: torch 2.13's
`basic_ios::clear: iostream error` under `torch.save`'s `_save` frame is a refused write
(`other`, `driver_env` beside it). docs/labelling.md#a-job-its-launcher-restarted: the first
attempt's failure names the label and the culprit, and a later attempt that dies connecting
to the addresses the failed one left is what the restart made of it; the ranks are placed by
the latest attempt that printed a checkpoint. The excerpts follow gloo jobs under torchrun
(`--log-dir` attempt folders, a `--tee` console whose stderr overtakes its buffered stdout),
with values of our own.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import assert_reads, diagnose_files
from tests.analyzers.job_bundles import pack

LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:{port}. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️"
)
RUN = "job-5f1c/torchrun_logs/none_q8x2kd/attempt_{attempt}/{rank}/{stream}.log"


def _progress(rank: int, layers: int, parts: tuple[str, ...]) -> str:
    """A rank's plain progress prints: whole layers, then the parts of the next one."""
    lines = [
        f"init process group: backend=gloo rank={rank} world_size=4",
        "prefill start: 8 tokens",
    ]
    for layer in range(layers):
        lines += ["  norm passed", "  attention passed", "  MoE passed", f"layer {layer} passed"]
    lines += [f"  {part} passed" for part in parts]
    return "\n".join(lines) + "\n"


def _traceback(rank: int, last: str, frames: tuple[str, ...]) -> str:
    body = [f"[rank{rank}]: Traceback (most recent call last):", *frames, last]
    return (
        "\n".join(line if line.startswith("[rank") else f"[rank{rank}]: {line}" for line in body)
        + "\n"
    )


MOE_FRAMES = (
    '  File "/srv/decoder/run.py", line 211, in forward',
    "    y = self.mlp(self.post_norm(x))",
)


def test_a_bare_memory_error_under_an_address_space_limit_is_host_memory() -> None:
    """Plain prints on stdout, tracebacks on stderr: rank 1's own traceback ends in the bare
    exception Python raises when the limit refuses a buffer, its peers lose it."""
    files = {}
    for rank in range(4):
        files[RUN.format(attempt=0, rank=rank, stream="stdout")] = _progress(
            rank, 2, ("norm", "attention")
        )
        if rank == 1:
            last = "MemoryError"
            frames = (
                *MOE_FRAMES,
                '  File "/srv/decoder/run.py", line 140, in stage',
                "    buf = bytearray(1 << 31)",
            )
        else:
            last = LOST.format(port=31200 + rank)
            frames = (*MOE_FRAMES, "    work.wait()")
        if rank != 3:  # the agent stopped rank 3 before it wrote anything
            files[RUN.format(attempt=0, rank=rank, stream="stderr")] = _traceback(
                rank, last, frames
            )
    files["job-5f1c/launcher.log"] = (
        "W1206 09:14:02.101000 4410 torch/distributed/elastic/multiprocessing/api.py:1028] "
        "Sending process 4433 closing signal SIGTERM\n"
        "E1206 09:14:02.388000 4410 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 1 (pid: 4431) of binary: /opt/venv/bin/python3\n"
    )
    diagnosis = diagnose_files(files)
    assert_reads(diagnosis, "oom", first_error="MemoryError")
    assert diagnosis.culprit_ranks == [1]


def test_a_refused_save_in_a_tee_console_is_the_writers_rank(tmp_path: Path) -> None:
    """The console shows rank 2's stderr traceback above its last stdout lines (torchrun's
    copies of stdout wait in a buffer): the stream error is still the first error, rank 2
    the culprit, and its last checkpoint is the one it printed after all."""

    def out(rank: int, text: str) -> str:
        return "".join(f"[default{rank}]:{line}\n" for line in text.splitlines())

    save_frames = (
        '  File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1003, in save',
        "    _save(",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1312, in _save',
        "    zip_file.write_record(name, storage, num_bytes)",
    )
    writer = _traceback(2, "RuntimeError: basic_ios::clear: iostream error", save_frames) + (
        "\n[rank2]: During handling of the above exception, another exception occurred:\n\n"
        + _traceback(
            2,
            "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 98304 vs 98211",
            ('  File "/srv/decoder/run.py", line 260, in snapshot', "    torch.save(state, path)"),
        )
    )
    done = _progress(0, 6, ()) + "prefill passed\nsaving prefill state to /scratch/s/rank{r}.pt\n"
    console = out(0, done.format(r=0)) + out(1, done.format(r=1)) + out(3, done.format(r=3))
    console += out(2, _progress(2, 4, ()))
    console += out(2, writer)
    console += out(2, "\n".join(_progress(2, 6, ()).splitlines()[-8:]) + "\nprefill passed\n")
    for rank in (0, 1, 3):
        console += out(rank, _traceback(rank, LOST.format(port=17600 + rank), ("    work.wait()",)))
    console += (
        "E1206 09:20:11.456000 5120 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 2 (pid: 5133) of binary: /opt/venv/bin/python3\n"
    )
    report = analyze(
        pack(tmp_path / "job.tar.gz", {"launcher.log": console}, "job-7e20"),
        AnalyzeOptions(workers=1),
    )
    assert_reads(
        report.diagnosis,
        "other",
        first_error="basic_ios::clear: iostream error",
        beside=["driver_env"],
    )
    assert report.diagnosis.culprit_ranks == [2]
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks}[2] == "prefill passed"


def test_a_rank_killed_in_the_first_attempt_stays_the_culprit_when_the_restart_cannot_connect(
    tmp_path: Path,
) -> None:
    """Attempt 0: rank 1 is killed with SIGKILL in layer 2 and prints nothing. Attempt 1: rank
    0's group cannot connect to an address the old attempt left and no rank prints a
    checkpoint, so the agent's second report names rank 0."""
    files = {}
    for rank in range(4):
        stamp = f"2026-12-06 09:31:0{rank},{100 + rank:03d} [rank{rank}] INFO "
        lines = [f"{stamp}init process group: backend=gloo rank={rank} world_size=4"]
        lines += [
            stamp + line.strip()
            for line in _progress(rank, 2, ("norm", "attention")).splitlines()[1:]
        ]
        if rank in (0, 2):
            lines.append(
                f"2026-12-06 09:31:05,400 [rank{rank}] ERROR model run failed: "
                + LOST.format(port=9100 + rank)
            )
        files[RUN.format(attempt=0, rank=rank, stream="stderr")] = "\n".join(lines) + "\n"
        retry = [
            f"2026-12-06 09:31:15,20{rank} [rank{rank}] INFO init process group: backend=gloo rank={rank} world_size=4"
        ]
        if rank == 0:
            retry.append(
                "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/"
                "gloo/transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused, "
                "remote=[127.0.0.1]:40211$0"
            )
        files[RUN.format(attempt=1, rank=rank, stream="stderr")] = "\n".join(retry) + "\n"
    agent = "E1206 {t} 6001 torch/distributed/elastic/multiprocessing/api.py:1002] "
    files["job-5f1c/launcher.log"] = (
        agent.format(t="09:31:05.620000")
        + "failed (exitcode: -9) local_rank: 1 (pid: 6012) of binary: /opt/venv/bin/python3\n"
        + agent.format(t="09:31:18.310000")
        + "failed (exitcode: 1) local_rank: 0 (pid: 6140) of binary: /opt/venv/bin/python3\n"
    )
    report = analyze(pack(tmp_path / "job.tar.gz", files), AnalyzeOptions(workers=1))
    assert_reads(
        report.diagnosis,
        "device_fault",
        first_error="failed (exitcode: -9) local_rank: 1",
        beside=["oom"],
    )
    assert report.diagnosis.culprit_ranks == [1]
    assert {r.last_checkpoint_qualified for r in report.ranks} == {"layer 2 / attention passed"}
