"""Write a bisection-run bundle: every rank prints a checkpoint per sub-module per layer per
decode step, as engineers do when they hunt for the layer that breaks.

The generator also returns what the logs really hold (`Truth`), computed from the lines it
wrote and not by the analyzer, so tests can check the report's facts exactly. Ranks print
`checkpoints` lines each unless `stops` says a rank stopped earlier (it died, or it waited
on a collective); `culprit` then logs an error after its last checkpoint and the others a
watchdog timeout. `skips` makes a rank skip one checkpoint (it took another code path).
"""

from __future__ import annotations

import io
import random
import tarfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

BASE_TIME = datetime(2026, 11, 29, 7, 24, 0)
SUBMODULES = ("norm", "attention", "MoE")


@dataclass
class Truth:
    counts: dict[int, int] = field(default_factory=dict)
    last: dict[int, str] = field(default_factory=dict)
    last_qualified: dict[int, str] = field(default_factory=dict)
    last_occurrence: dict[int, int] = field(default_factory=dict)
    common: str | None = None
    common_qualified: str | None = None
    common_occurrence: int | None = None


def checkpoint_plan(count: int, layers: int) -> list[tuple[str, str]]:
    """(text, qualified) of the first `count` checkpoints of a decode loop."""
    plan: list[tuple[str, str]] = []
    step = 0
    while len(plan) < count:
        where = f"decode step {step} / " if step else ""
        for layer in range(layers):
            for part in SUBMODULES:
                plan.append((f"{part} passed", f"{where}layer {layer} / {part} passed"))
            plan.append((f"layer {layer} passed", f"{where}layer {layer} passed"))
        plan.append((f"decode step {step} passed", f"decode step {step} passed"))
        step += 1
    return plan[:count]


def write_bisection_bundle(
    out: Path,
    ranks: int,
    checkpoints: int,
    *,
    layers: int = 40,
    stops: dict[int, int] | None = None,
    culprit: int | None = None,
    skips: dict[int, int] | None = None,
    seed: int = 7,
) -> Truth:
    """Write `out` (.tar.gz) and return the facts its logs hold."""
    rng = random.Random(seed)
    stops, skips = stops or {}, skips or {}
    plan = checkpoint_plan(checkpoints, layers)
    sequences = {}
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        for rank in range(ranks):
            own = [
                p
                for i, p in enumerate(plan[: stops.get(rank, checkpoints)])
                if i != skips.get(rank)
            ]
            sequences[rank] = own
            lines = _rank_lines(
                rank, own, rng, failed=rank == culprit, peer_failed=culprit is not None
            )
            _add(tar, f"job/logs/log_{rank}.log", lines)
        _add(tar, "job/env.txt", [f"WORLD_SIZE={ranks}", "HCCL_CONNECT_TIMEOUT=1200"])
    return _truth(sequences)


def _rank_lines(
    rank: int, plan: list[tuple[str, str]], rng: random.Random, *, failed: bool, peer_failed: bool
) -> list[str]:
    now = BASE_TIME + timedelta(milliseconds=rng.randint(0, 50))
    head = f"[default{rank % 8}]:"
    tag = f"[rank{rank}] INFO"
    lines = [f"{head}{_stamp(now)} {tag} init process group: backend=hccl rank={rank}"]
    for text, _ in plan:
        now += timedelta(microseconds=rng.randint(300, 9000))
        indent = " " if text.split()[0] in SUBMODULES else ""
        lines.append(f"{head}{_stamp(now)} {tag} {indent}{text}")
        if text.startswith("decode step"):
            lines.append(f"{head}{_stamp(now)} {tag} generated token {rng.randint(0, 150000)}")
    if failed:
        lines += [
            f"{head}[rank{rank}]: Traceback (most recent call last):",
            f'{head}[rank{rank}]:   File "/workspace/infer.py", line 212, in forward',
            f"{head}[rank{rank}]: RuntimeError: shape '[8, 32]' is invalid for input of size 96",
        ]
    elif peer_failed:
        now += timedelta(seconds=1800)
        lines.append(
            f"{head}[rank{rank}]:[E{now:%m%d %H:%M:%S}.{now.microsecond:06d}000 "
            f"ProcessGroupHCCL.cpp:721] [Rank {rank}] Watchdog caught collective operation "
            "timeout: WorkHCCL(SeqNum=88, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for "
            "1800093 milliseconds before timing out."
        )
    return lines


def _stamp(moment: datetime) -> str:
    """`%Y-%m-%d %H:%M:%S,mmm`, with the part up to the minute made once per minute: a big
    run writes millions of lines, and strftime on each was most of the generator's time."""
    minute = _minute(moment.year, moment.month, moment.day, moment.hour, moment.minute)
    return f"{minute}{moment.second:02d},{moment.microsecond // 1000:03d}"


@lru_cache(maxsize=64)
def _minute(year: int, month: int, day: int, hour: int, minute: int) -> str:
    return f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:"


def _truth(sequences: dict[int, list[tuple[str, str]]]) -> Truth:
    truth = Truth()
    for rank, seq in sequences.items():
        truth.counts[rank] = len(seq)
        if seq:
            truth.last[rank], truth.last_qualified[rank] = seq[-1]
            truth.last_occurrence[rank] = [t for t, _ in seq].count(seq[-1][0])
    counts = {rank: Counter(t for t, _ in seq) for rank, seq in sequences.items()}
    lowest = sequences[min(sequences)]
    seen: Counter[str] = Counter()
    for text, qualified in lowest:
        seen[text] += 1
        if all(count[text] >= seen[text] for count in counts.values()):
            truth.common, truth.common_qualified = text, qualified
            truth.common_occurrence = seen[text]
    return truth


def _add(tar: tarfile.TarFile, name: str, lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode()
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(BASE_TIME.timestamp())
    tar.addfile(info, io.BytesIO(data))
