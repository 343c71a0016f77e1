"""Which files hold a restarted job's earlier attempts.

torchrun with `--max-restarts` starts the whole worker group again after a failure, and its
`--log-dir` tree keeps one folder per attempt:

    job/torchrun_logs/none_3z76/attempt_0/1/stdout.log    layer 3 passed ... then the error
    job/torchrun_logs/none_3z76/attempt_1/1/stdout.log    the restarted rank, from the start

Where each rank stopped is a question about the last attempt: that is the run that ended the
job. An earlier attempt's checkpoints would place the rank where the first run stopped, and
the restarted run (which may never get that far) would hide behind them. The launcher's own
log beside the tree copies every attempt's lines under the same `[defaultN]:` tags with
nothing between them that says which attempt wrote them, so it is left out as well; the last
attempt's own files hold the same lines. Errors of every attempt stay evidence: the first
failure is often why the job restarted at all.

A restart is group-wide: on a job of several nodes, each node's agent goes back to the
rendezvous when any of them restarts. Only the agent whose child failed counts the restart
(`attempt_1/`, ...); the others are restarted by the membership change, keep writing
`attempt_0/` (each run rewrites its files, so they hold the last run) and copy every run into
their consoles. So once any agent's tree shows a later attempt, every agent's console is left
out, not only the restarted one's.

A file several attempts wrote into (a launcher's console, a log a retry loop appended to) is
cut where each later attempt begins (`analyzers.checkpoints.restarts`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from analyzers.checkpoints.restarts import agent_attempts, restart_lines
from analyzers.core.types import FileKind, FileScan
from analyzers.ingest.layout import agent_attempt, folder_prefix


def earlier_attempts(scans: Sequence[FileScan]) -> set[str]:
    """Paths whose checkpoints belong to an attempt a later one replaced."""
    attempts: list[tuple[str, str, int]] = []
    latest: dict[str, int] = {}
    for scan in scans:
        found = agent_attempt(scan.info.path)
        if found is not None:
            agent, number = found
            attempts.append((scan.info.path, agent, number))
            latest[agent] = max(latest.get(agent, number), number)
    stale = {path for path, agent, number in attempts if number < latest[agent]}
    if any(number > 0 for number in latest.values()):
        # A restart is group-wide: every agent of the job meets at the rendezvous again. An
        # agent whose own child did not fail is restarted by the membership change and keeps
        # its attempt number, so its tree shows one attempt (rewritten by its last run) while
        # its console holds every run: every agent's console is a copy of several runs.
        stale.update(_launcher_copies(scans, set(latest)))
    return stale


def _launcher_copies(scans: Sequence[FileScan], restarted: set[str]) -> list[str]:
    """Launcher logs in a folder that holds a restarted agent's tree."""
    return [
        scan.info.path
        for scan in scans
        if scan.info.kind == FileKind.LAUNCHER
        and any(agent.startswith(folder_prefix(scan.info.path)) for agent in restarted)
    ]


class Attempts:
    """Which attempt of a restarted job wrote each line of a bundle."""

    def __init__(self, scans: Sequence[FileScan]):
        self._folder: dict[str, int] = {}
        self._restarts: dict[str, list[int]] = {}
        self._agent: dict[str, dict[int, int]] = {}  # a launcher log's own lines, numbered
        for scan in scans:
            found = agent_attempt(scan.info.path)
            if found is not None:
                self._folder[scan.info.path] = found[1]
                continue
            lines = restart_lines(scan)
            if lines:
                self._restarts[scan.info.path] = lines
            elif scan.info.kind == FileKind.LAUNCHER:
                self._agent[scan.info.path] = agent_attempts(scan)
        numbers = [*self._folder.values(), *(len(v) for v in self._restarts.values())]
        self.last = max(numbers, default=0)

    @property
    def restarted(self) -> bool:
        return self.last > 0

    def holds(self, path: str, number: int) -> bool:
        """Whether the file holds lines of that attempt (its folder's, or one of its cuts')."""
        if path in self._folder:
            return self._folder[path] == number
        return path in self._restarts and number <= len(self._restarts[path])

    def of(self, path: str, line: int) -> int | None:
        """The attempt that wrote the line, None when its file does not say (a launcher log
        beside an attempt tree, which copies every attempt's lines)."""
        if path in self._folder:
            return self._folder[path]
        if path in self._restarts:
            return bisect_right(self._restarts[path], line - 1)
        return None if self._folder else 0

    def placed(self, path: str, line: int) -> int | None:
        """`of`, and in a launcher log beside an attempt tree the agent's own lines too,
        numbered by its reports of failed children (`checkpoints.restarts.agent_attempts`):
        enough to say which attempt a report of a silent child ended, for judging silence in
        that attempt. Its other lines (copies, the final failure record) stay unplaced."""
        number = self.of(path, line)
        if number is not None or path not in self._agent:
            return number
        agent = self._agent[path].get(line)
        return None if agent is None else min(agent, self.last)
