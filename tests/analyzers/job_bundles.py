"""Small multi-rank bundles shaped like the torch corpus (`../shared/corpus/torch`).

Each rank writes `log_<rank>.log` with Python logging (`2026-11-29 07:24:22,190 [rank2]
INFO layer 0 passed`), the toy decoder's bisection checkpoints, and on failure the logged
error, the Python traceback and torch's `[rankN]:` copy of it, as the real runs print them.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.core.report import Report

START = datetime(2026, 11, 29, 7, 24, 21, 535000)
PREFIX = "job-5c1d2e7a"
ENV = "WORLD_SIZE={size}\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=36949\nBACKEND=gloo\n"

SPLIT = "start ({start}) + length (35328) exceeds dimension size (131125)."
CLOSED = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
    "by peer [127.0.0.1]:1946. This is typically caused by a remote worker crashing. Check the "
    "logs of the remote worker before reporting an error. GLHF!"
)
RECV_TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out "
    "waiting 10000ms for recv operation to complete"
)


def decoder_steps(layers: int, then: Iterable[str] = (), *, loaded: bool = False) -> list[str]:
    """The toy decoder's bisection prints as its ranks write them: `load weights passed` when
    `loaded`, `prefill start`, each whole layer's sub-modules and `layer N passed`, then the
    lines of `then` (where the rank stopped). Tests that write their own line layout (plain
    prints, an srun prefix, epoch stamps) put these messages in it."""
    steps = ["load weights passed"] if loaded else []
    steps.append("prefill start: 8 tokens")
    for layer in range(layers):
        steps += [" norm passed", " attention passed", " MoE passed", f"layer {layer} passed"]
    return steps + list(then)


class RankLog:
    """One rank's log, written line by line on the rank's own clock (milliseconds)."""

    def __init__(self, rank: int, world_size: int) -> None:
        self.rank = rank
        self.ms = 0
        self.lines: list[str] = []
        self.info(
            f"init process group: backend=gloo rank={rank} world_size={world_size} "
            "master=127.0.0.1:36949 timeout=10s"
        )
        self.info("building toy decoder: layers=6 hidden=32 experts=8 vocab=131125 tp=4")

    def at(self, ms: int) -> RankLog:
        self.ms = ms
        return self

    def log(self, level: str, message: str, step_ms: int = 12) -> RankLog:
        stamp = START + timedelta(milliseconds=self.ms)
        text = stamp.strftime("%Y-%m-%d %H:%M:%S,") + f"{stamp.microsecond // 1000:03d}"
        self.lines.append(f"{text} [rank{self.rank}] {level} {message}")
        self.ms += step_ms
        return self

    def info(self, message: str) -> RankLog:
        return self.log("INFO", message)

    def loaded(self) -> RankLog:
        start = self.rank * 32782
        self.info(f"weights loaded: embed rows [{start}, {start + 32782}) experts=[0, 4]")
        self.info("load weights passed")
        return self.info("waiting for all ranks to finish loading weights")

    def layers(self, count: int, then: Iterable[str] = ()) -> RankLog:
        """`prefill start`, then `count` whole layers, then the given sub-module checkpoints."""
        return self.steps(*decoder_steps(count, then))

    def steps(self, *checkpoints: str) -> RankLog:
        for checkpoint in checkpoints:
            self.info(checkpoint)
        return self

    def fails(self, exception: str, frame: str = "load_weights") -> RankLog:
        """The logged error, the traceback and torch's `[rankN]:` copy of the traceback."""
        message = exception.split(": ", 1)[1]
        self.log("ERROR", f"model run failed: {message}")
        frames = [
            "Traceback (most recent call last):",
            '  File "/home/user/llm-infer/infer.py", line 346, in main',
            "    tokens = run_model()",
            f'  File "/home/user/llm-infer/infer.py", line 120, in {frame}',
            "    shard = full.narrow(0, start, length)",
            exception,
        ]
        self.lines += frames + [f"[rank{self.rank}]: {line}" for line in frames]
        return self

    def raw(self, line: str) -> RankLog:
        self.lines.append(line)
        return self

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def store_never_fills(world_size: int, started: int) -> list[RankLog]:
    """`started` processes told that the world has `world_size` ranks: rank 0's store waits
    for clients that never come, the others wait for the store's barrier."""
    logs = [RankLog(rank, world_size) for rank in range(started)]
    logs[0].raw(
        "torch.distributed.DistStoreError: Timed out after 11 seconds waiting for clients. "
        f"{started}/{world_size} clients joined."
    )
    for log in logs[1:]:
        log.raw(
            "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: "
            "/default_pg/0//cpu//0/0"
        )
    return logs


def ranks(world_size: int) -> list[RankLog]:
    return [RankLog(rank, world_size) for rank in range(world_size)]


def bundle(
    directory: Path,
    logs: Iterable[RankLog],
    world_size: int,
    extra: Mapping[str, str] | None = None,
) -> Path:
    """A .tar.gz like the corpus ones: one top folder, per-rank logs, an env dump and any
    other files the job left (a launch script's output)."""
    files = {f"log_{log.rank}.log": log.text() for log in logs}
    files["env.txt"] = ENV.format(size=world_size)
    files.update(extra or {})
    return pack(directory / "job.tar.gz", files, PREFIX)


def pack(path: Path, files: Mapping[str, str], top: str | None = None) -> Path:
    """A .tar.gz of `files` (member name -> text), under one top folder when `top` is given,
    as a collector packs a job's logs."""
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{name}" if top else name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def analyze_job(
    directory: Path,
    logs: Mapping[int, RankLog] | Iterable[RankLog],
    extra: Mapping[str, str] | None = None,
) -> Report:
    """The full pipeline over the bundle of these rank logs, in one process."""
    logs = list(logs.values()) if isinstance(logs, Mapping) else list(logs)
    return analyze(bundle(directory, logs, len(logs), extra), AnalyzeOptions(workers=1))
