"""Which attempt of a restarted job printed each rank's first error, as the rank table says.

torchrun with `--max-restarts` starts the worker group again after a failure and keeps one
folder per attempt (`.../attempt_<n>/<local rank>/stderr.log`). The report places every rank
by its last attempt (its last checkpoint), but a rank's first error is its earliest in any
attempt: the failure that restarted the job on one rank, an error after the restart on
another. The table labels each such error with its attempt, read from its file's folder with
the analyzer's own layout rules; an error in a file no attempt folder holds (a launcher's
console, which copies every attempt) gets no label.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from analyzers.ingest.layout import agent_attempt


@dataclass(frozen=True, slots=True)
class Attempts:
    """The last attempt of a restarted job and the attempt of each rank's first error."""

    last: int
    of_rank: dict[int, int]


def rank_attempts(report: Mapping[str, Any] | None) -> Attempts | None:
    """None for a job that ran once (no file in a folder of a later attempt)."""
    ranks = (report or {}).get("ranks") or []
    numbers = [_attempt(path) for row in ranks for path in row.get("files") or ()]
    last = max((n for n in numbers if n is not None), default=0)
    if last == 0:
        return None
    of_rank = {}
    for row in ranks:
        number = _attempt((row.get("first_error") or {}).get("file"))
        if number is not None:
            of_rank[row["rank"]] = number
    return Attempts(last, of_rank)


def _attempt(path: Any) -> int | None:
    found = agent_attempt(path) if isinstance(path, str) else None
    return found[1] if found else None
