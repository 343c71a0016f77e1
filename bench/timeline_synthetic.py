"""Synthetic reports shaped like the analyzer's, for benchmarks of the timeline.

A decoder job printing bisection checkpoints (`  norm passed`, `  attention passed`,
`  MoE passed`, `layer N passed`) once per layer and decode step, each rank with its
own clock offset; one culprit rank stops early with a shape error, the others fail
right after it with gloo "Connection closed by peer", a few ranks log nothing, and rank 1
straggles: every tenth of its steps takes 20 ms more than the others' 2-6 ms.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

SUBMODULES = ("norm passed", "attention passed", "MoE passed")
START = datetime(2026, 11, 29, 7, 24, 22, tzinfo=UTC)
SLOW_RANK = 1
SLOW_EVERY = 10
SLOW_EXTRA_MS = 20.0


def checkpoint_texts(count: int, layers: int = 32) -> list[tuple[str, str]]:
    """(text, qualified) of the first `count` checkpoints a decoder rank prints."""
    out: list[tuple[str, str]] = []
    step = 0
    while len(out) < count:
        phase = "prefill" if step == 0 else f"decode step {step}"
        for layer in range(layers):
            for part in SUBMODULES:
                out.append((part, f"{phase} / layer {layer} / {part}"))
            out.append((f"layer {layer} passed", f"{phase} / layer {layer} passed"))
        step += 1
    return out[:count]


def synthetic_report(ranks: int, checkpoints: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    culprit = ranks // 2 + 1 if ranks > 2 else ranks - 1
    silent = {ranks - 1} if ranks >= 8 else set()
    stop_at = checkpoints - 3
    texts = checkpoint_texts(checkpoints)
    timeline, summaries, files = {}, [], []
    for rank in range(ranks):
        path = f"job-bench/log_{rank}.log"
        files.append({"path": path, "kind": "rank_log", "rank": rank, "lines": checkpoints + 40})
        if rank in silent:
            timeline[str(rank)] = []
            summaries.append(_summary(rank, "missing", None, 0, None))
            continue
        count = stop_at if rank == culprit else checkpoints
        skew = rng.uniform(-2.0, 2.0)
        extra = SLOW_EXTRA_MS if rank == SLOW_RANK else 0.0
        timeline[str(rank)] = _rank_timeline(path, texts[:count], skew, rng, extra)
        error = _error(rank, path, count, culprit)
        last = texts[count - 1][0]
        summaries.append(_summary(rank, "error", last, count, error))
    first = next(s["first_error"] for s in summaries if s["rank"] == culprit)
    return {
        "schema_version": 1,
        "bundle": {
            "name": "bench.tar.gz",
            "sha256": "0" * 64,
            "size_bytes": 0,
            "files": files,
            "warnings": [],
        },
        "world_size": ranks,
        "ranks": summaries,
        "diagnosis": {
            "category": "shape_mismatch",
            "subsystem": "framework",
            "confidence": 0.9,
            "first_error": first,
            "culprit_ranks": [culprit],
            "last_common_checkpoint": texts[stop_at - 1][0],
            "evidence": [],
        },
        "timeline": timeline,
        "cases": [],
        "environment": {},
        "analyzer_version": "bench",
    }


def _rank_timeline(
    path: str, texts: list[tuple[str, str]], skew: float, rng: random.Random, extra_ms: float
) -> list[dict[str, Any]]:
    entries, seen = [], {}
    moment = START + timedelta(seconds=skew)
    for line, (text, qualified) in enumerate(texts, start=12):
        slow = extra_ms if line % SLOW_EVERY == 0 else 0.0
        moment += timedelta(milliseconds=rng.uniform(2, 6) + slow)
        index = seen.get(text, 0)
        seen[text] = index + 1
        entries.append(
            {
                "text": text,
                "index": index,
                "file": path,
                "line": line,
                "timestamp": moment.replace(tzinfo=None).isoformat(timespec="milliseconds"),
                "qualified": qualified,
            }
        )
    return entries


def _error(rank: int, path: str, count: int, culprit: int) -> dict[str, Any]:
    if rank == culprit:
        text = (
            f"[rank{rank}]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"
        )
    else:
        text = (
            f"[rank{rank}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] "
            "Connection closed by peer [127.0.0.1]:1946"
        )
    return {"file": path, "line": count + 12 + 30, "text": text, "rank": rank, "timestamp": None}


def _summary(
    rank: int, status: str, last: str | None, count: int, error: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "rank": rank,
        "status": status,
        "last_checkpoint": last,
        "checkpoints": count,
        "first_error": error,
        "last_checkpoint_qualified": None,
        "files": [],
    }
