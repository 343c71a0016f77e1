"""Reports shaped like the analyzer's output for the real torch corpus runs.

Checkpoint lines follow `corpus/torch/*`: `load weights passed`, then per layer the
sub-module lines `norm passed`, `attention passed`, `MoE passed` and `layer N passed`;
errors are torch's `[rankN]: RuntimeError: ...` lines and gloo's peer-closed cascade.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

PARTS = ("norm passed", "attention passed", "MoE passed")
START = datetime(2026, 11, 29, 7, 24, 22)


def decoder_checkpoints(layers: int) -> list[tuple[str, str]]:
    """(text, qualified) of a rank that finished `layers` layers."""
    out = [("load weights passed", "load weights passed")]
    for layer in range(layers):
        out += [(part, f"layer {layer} / {part}") for part in PARTS]
        out.append((f"layer {layer} passed", f"layer {layer} passed"))
    return out


def rank_timeline(
    rank: int,
    checkpoints: list[tuple[str, str]],
    *,
    skew_s: float | None = 0.0,
    step_s: float = 0.05,
    first_line: int = 4,
) -> list[dict[str, Any]]:
    """A rank's timeline entries; `skew_s=None` for logs without timestamps."""
    seen: dict[str, int] = {}
    entries = []
    for n, (text, qualified) in enumerate(checkpoints):
        index = seen.get(text, 0)
        seen[text] = index + 1
        moment = START + timedelta(seconds=n * step_s + (skew_s or 0.0))
        entries.append(
            {
                "text": text,
                "index": index,
                "file": log_path(rank),
                "line": first_line + n,
                "timestamp": None if skew_s is None else moment.isoformat(timespec="milliseconds"),
                "qualified": qualified,
            }
        )
    return entries


def log_path(rank: int) -> str:
    return f"job-f0dddebb/log_{rank}.log"


def error_ref(rank: int, line: int, text: str, timestamp: str | None = None) -> dict[str, Any]:
    return {
        "file": log_path(rank),
        "line": line,
        "text": text,
        "rank": rank,
        "timestamp": timestamp,
    }


SHAPE_ERROR = "[rank{r}]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"
PEER_CLOSED = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:553] Connection closed by peer [127.0.0.1]:1946"
)


def crash_report(
    ranks: int = 4,
    culprit: int = 3,
    layers: int = 2,
    *,
    skews: dict[int, float | None] | None = None,
    world_size: int | None = None,
    silent: tuple[int, ...] = (),
) -> dict[str, Any]:
    """One rank dies with a shape error in layer 1 attention; the others see the peer close."""
    skews = skews or {}
    timeline: dict[str, list] = {}
    summaries = []
    full = decoder_checkpoints(layers)
    for rank in range(ranks):
        if rank in silent:
            summaries.append(_summary(rank, "missing", [], None))
            timeline[str(rank)] = []
            continue
        cps = full[: len(full) - 3] if rank == culprit else full
        entries = rank_timeline(rank, cps, skew_s=skews.get(rank, 0.0))
        text = (SHAPE_ERROR if rank == culprit else PEER_CLOSED).format(r=rank)
        error = error_ref(rank, entries[-1]["line"] + 37, text)
        timeline[str(rank)] = entries
        summaries.append(_summary(rank, "error", entries, error))
    causal = next(s["first_error"] for s in summaries if s["rank"] == culprit)
    return {
        "schema_version": 1,
        "bundle": {
            "name": "crash_one_rank.tar.gz",
            "sha256": "0" * 64,
            "size_bytes": 12000,
            "files": [
                {"path": log_path(r), "kind": "rank_log", "rank": r, "lines": 80}
                for r in range(ranks)
            ],
            "warnings": [],
        },
        "world_size": world_size or ranks,
        "ranks": summaries,
        "diagnosis": {
            "category": "shape_mismatch",
            "first_error": causal,
            "culprit_ranks": [culprit],
            "last_common_checkpoint": "norm passed",
            "evidence": [{"ref": causal, "role": "cause"}],
        },
        "timeline": timeline,
    }


def _summary(rank: int, status: str, entries: list[dict], error: dict | None) -> dict[str, Any]:
    return {
        "rank": rank,
        "status": status,
        "last_checkpoint": entries[-1]["text"] if entries else None,
        "last_checkpoint_qualified": entries[-1]["qualified"] if entries else None,
        "checkpoints": len(entries),
        "first_error": error,
        "files": [log_path(rank)] if entries else [],
    }


def slowed(entries: list[dict[str, Any]], *, after: int, extra_s: float) -> list[dict[str, Any]]:
    """The same entries, with every step from checkpoint `after` on taking `extra_s` longer."""
    out = []
    for n, entry in enumerate(entries):
        delay = max(0, n - after + 1) * extra_s
        moment = datetime.fromisoformat(entry["timestamp"]) + timedelta(seconds=delay)
        out.append({**entry, "timestamp": moment.isoformat(timespec="milliseconds")})
    return out


def straggler_report(
    ranks: int = 8, slow: int = 5, *, layers: int = 3, after: int = 5, extra_s: float = 0.2
) -> dict[str, Any]:
    """A crash report (the last rank dies) where rank `slow` takes 0.05 + `extra_s` s per
    step from its checkpoint `after` on, while every other rank takes 0.05 s."""
    report = crash_report(ranks, culprit=ranks - 1, layers=layers)
    report["timeline"][str(slow)] = slowed(
        report["timeline"][str(slow)], after=after, extra_s=extra_s
    )
    return report
