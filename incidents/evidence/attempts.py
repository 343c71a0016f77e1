"""Which attempt of a restarted job printed each rank's first error, as the rank table says.

torchrun with `--max-restarts` starts the worker group again after a failure and keeps one
folder per attempt (`.../attempt_<n>/<local rank>/stderr.log`). The report places every rank
by its last attempt (its last checkpoint), but a rank's first error is its earliest in any
attempt: the failure that restarted the job on one rank, an error after the restart on
another. The table labels each such error with its attempt, read from its file's folder with
the analyzer's own layout rules; an error in a file no attempt folder holds (a launcher's
console, which copies every attempt) gets no label.

When the last attempt died before any rank printed a checkpoint, the analyzer places the ranks
by the latest attempt that printed some (`analyzers.timeline.attempts`), and the table's note
names that attempt: read as the last one's, the checkpoints would pass an earlier run's
progress off as the restarted run's. The attempt is read from the folders of the files the
report's timeline holds (the files its checkpoints came from).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from analyzers.ingest.layout import agent_attempt


@dataclass(frozen=True, slots=True)
class Attempts:
    """The last attempt of a restarted job, the attempt of each rank's first error, and the
    attempt the ranks' last checkpoints come from."""

    last: int
    of_rank: dict[int, int]
    checkpoints: int


def rank_attempts(report: Mapping[str, Any] | None) -> Attempts | None:
    """None for a job that ran once (no file in a folder of a later attempt).

    A restart is group-wide, but only the agent whose child failed counts it: another node's
    agent rejoins the rendezvous and keeps writing `attempt_0/`, which then holds the last run
    (as `analyzers.timeline.attempts` reads it). So a file in its agent's newest folder is
    labelled with the job's last attempt, and only an older folder with its own number.
    """
    ranks = (report or {}).get("ranks") or []
    newest: dict[str, int] = {}
    for row in ranks:
        for agent, number in filter(None, map(_attempt, row.get("files") or ())):
            newest[agent] = max(newest.get(agent, number), number)
    last = max(newest.values(), default=0)
    if last == 0:
        return None
    of_rank = {}
    for row in ranks:
        found = _attempt((row.get("first_error") or {}).get("file"))
        if found is not None:
            of_rank[row["rank"]] = _number(found, newest, last)
    files = ((report or {}).get("timeline") or {}).get("files") or ()
    read = [_number(found, newest, last) for found in map(_attempt, files) if found is not None]
    return Attempts(last, of_rank, max(read, default=last))


def _number(found: tuple[str, int], newest: Mapping[str, int], last: int) -> int:
    """The job's attempt a file's folder holds: its agent's newest folder holds the last run."""
    agent, number = found
    return last if number >= newest.get(agent, number) else number


def _attempt(path: Any) -> tuple[str, int] | None:
    return agent_attempt(path) if isinstance(path, str) else None
