"""Which files hold a restarted job's earlier attempts.

torchrun with `--max-restarts` starts the whole worker group again after a failure, and its
`--log-dir` tree keeps one folder per attempt:

    job/torchrun_logs/none_3z76/attempt_0/1/stdout.log    layer 3 passed ... then the error
    job/torchrun_logs/none_3z76/attempt_1/1/stdout.log    the restarted rank, from the start

Where each rank stopped is a question about the last attempt: that is the run that ended the
job (unless it printed no checkpoint at all, below). An earlier attempt's checkpoints would place the rank where the first run stopped, and
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
out, not only the restarted one's. When the run wanted lies further back than such an agent's
tree goes, its console is read after all, cut where each run began (`progress_restart_lines`):
that console alone still holds the run (`_consoles_reaching_back`). pdsh's console of every
host's agent (`node-1: [default0]:...`) lies over all their trees; when it is cut into more runs
than any of them keeps attempt folders, an agent rewrote a folder with a later run, and the run
that printed checkpoints is read from the console for all of them (`_consoles_with_more_runs`).

A file several attempts wrote into (a launcher's console, a log a retry loop appended to) is
cut where each later attempt begins (`analyzers.checkpoints.restarts`).

A last attempt in which no rank printed any checkpoint is not where the ranks stopped: it died
at start-up (connecting to a store the failed attempt left, a port still held, a rendezvous
already closed), and reading it would say "no checkpoint" for every rank, which tells a user
nothing about the run that did the work. The ranks are then placed by the latest attempt that
printed checkpoints, in every layout alike (`stopped_run`): an agent's folder that many
attempts back, a cut file's part that many cuts back. Both count back from their own last
attempt, since an agent restarted only by another node's restart holds its last run in
`attempt_0/`. An attempt in which even one rank printed a checkpoint ran, and is read as
before: its silent ranks have none.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from analyzers.checkpoints.restarts import (
    agent_attempts,
    agent_reports,
    progress_restart_lines,
    restart_lines,
)
from analyzers.checkpoints.track import NO_RANK, track_of
from analyzers.core.types import FileKind, FileScan
from analyzers.ingest.layout import agent_attempt, folder_prefix


@dataclass(frozen=True, slots=True)
class StoppedRun:
    """Where a bundle's checkpoints place its ranks: the files left out (other attempts'
    folders, launcher copies of several runs) and, in each file several attempts wrote into,
    the lines [first, end) of the attempt read."""

    left_out: set[str]
    spans: dict[str, tuple[int, float]]

    def keeps(self, path: str, line: int) -> bool:
        span = self.spans.get(path)
        return span is None or span[0] <= line < span[1]


def stopped_run(scans: Sequence[FileScan]) -> StoppedRun:
    """The attempt whose checkpoints say where the ranks stopped (module doc): the last one,
    or the latest that printed any when the attempts after it printed none."""
    folders: dict[str, tuple[str, int]] = {}
    latest: dict[str, int] = {}
    cuts: dict[str, list[int]] = {}
    for scan in scans:
        found = agent_attempt(scan.info.path)
        if found is not None:
            folders[scan.info.path] = found
            latest[found[0]] = max(latest.get(found[0], found[1]), found[1])
        if lines := progress_restart_lines(scan):
            cuts[scan.info.path] = lines
    left_out: set[str] = set()
    if any(number > 0 for number in latest.values()):
        # A restart is group-wide: every agent of the job meets at the rendezvous again. An
        # agent whose own child did not fail is restarted by the membership change and keeps
        # its attempt number, so its tree shows one attempt (rewritten by its last run) while
        # its console holds every run: every agent's console is a copy of several runs.
        left_out.update(_launcher_copies(scans, set(latest)))
    # a file in an attempt folder is that attempt's (cut, its last part)
    spans = {path: _span(lines, len(lines)) for path, lines in cuts.items() if path in folders}
    cut = {
        path: lines for path, lines in cuts.items() if path not in spans and path not in left_out
    }
    back = _attempts_back(scans, folders, latest, cut, spans)
    consoles = _consoles_reaching_back(scans, latest, back, cuts)
    short = set(consoles.values())  # agents read from their consoles instead of their trees
    left_out.difference_update(consoles)
    left_out.update(
        path
        for path, (agent, number) in folders.items()
        if agent in short or number != max(latest[agent] - back, 0)
    )
    spans.update((path, _span(lines, max(len(lines) - back, 0))) for path, lines in cut.items())
    spans.update((path, _span(cuts[path], len(cuts[path]) - back)) for path in consoles)
    for path, (runs_back, under) in _consoles_with_more_runs(scans, folders, latest, cuts).items():
        left_out.discard(path)
        left_out.update(p for p, (agent, _) in folders.items() if agent in under)
        spans[path] = _span(cuts[path], len(cuts[path]) - runs_back)
    return StoppedRun(left_out, spans)


def _consoles_with_more_runs(
    scans: Sequence[FileScan],
    folders: dict[str, tuple[str, int]],
    latest: dict[str, int],
    cuts: dict[str, list[int]],
) -> dict[str, tuple[int, list[str]]]:
    """Consoles that hold more runs than the agents' trees beneath them keep attempt folders,
    each with the runs to count back and those agents: pdsh's console of every host's agent
    (`node-1: [default0]:...`) copies every run, while an agent restarted by another node's
    restart rewrote its attempt folder with a later run, so its trees lost the run that printed
    the checkpoints. When the console's last run printed none, the latest run that did is read
    from the console for all those agents. A console whose last run printed checkpoints leaves
    the trees to hold it (each agent's last folder is its last run)."""
    found: dict[str, tuple[int, list[str]]] = {}
    for scan in scans:
        path = scan.info.path
        lines = cuts.get(path)
        if path in folders or not lines:
            continue
        under = [agent for agent in latest if agent.startswith(folder_prefix(path))]
        if not under or len(lines) <= max(latest[agent] for agent in under):
            continue
        printed = [
            part for part in range(len(lines) + 1) if _progress_between(scan, *_span(lines, part))
        ]
        if printed and max(printed) < len(lines):
            found[path] = (len(lines) - max(printed), under)
    return found


def _consoles_reaching_back(
    scans: Sequence[FileScan], latest: dict[str, int], back: int, cuts: dict[str, list[int]]
) -> dict[str, str]:
    """Consoles to read instead of their agent's tree, each with its agent: the run wanted lies
    `back` runs before the last, further back than the agent's tree goes (an agent restarted
    only by another node's restart keeps its last run in `attempt_0/`), while its `--tee`
    console holds every run and is cut where each began (`progress_restart_lines`). A console
    is taken only when it lies over that one agent's tree and has enough cuts to reach back."""
    if back == 0:
        return {}
    found: dict[str, str] = {}
    for scan in scans:
        path = scan.info.path
        if scan.info.kind != FileKind.LAUNCHER or len(cuts.get(path, ())) < back:
            continue
        under = [agent for agent in latest if agent.startswith(folder_prefix(path))]
        if len(under) == 1 and latest[under[0]] < back:
            found[path] = under[0]
    return found


def _attempts_back(
    scans: Sequence[FileScan],
    folders: dict[str, tuple[str, int]],
    latest: dict[str, int],
    cuts: dict[str, list[int]],
    spans: dict[str, tuple[int, float]],
) -> int:
    """How many of the last attempts printed no checkpoint on any rank (0 when the last one
    did, or when none did: then there is nothing better to read). Each agent's folders and
    each cut file count back from their own last attempt: an agent restarted only by another
    node's restart holds its last run in `attempt_0/`."""
    if not cuts and not any(latest.values()):
        return 0
    printed: set[int] = set()  # attempts, counted back from the last, that printed progress
    for scan in scans:
        path = scan.info.path
        if path in folders:
            agent, number = folders[path]
            if _progress_between(scan, *spans.get(path, (0, _END))):
                printed.add(latest[agent] - number)
        elif path in cuts:
            lines = cuts[path]
            printed.update(
                len(lines) - part
                for part in range(len(lines) + 1)
                if _progress_between(scan, *_span(lines, part))
            )
    return min(printed, default=0)


_END = float("inf")


def _span(cuts: list[int], part: int) -> tuple[int, float]:
    """Lines [first, end) of the file's `part`-th attempt."""
    return (cuts[part - 1] if part else 0, cuts[part] if part < len(cuts) else _END)


def _progress_between(scan: FileScan, first: int, end: float) -> bool:
    """Whether a rank's checkpoint stands on lines [first, end) of the file (a line that names
    no rank counts only in a file of one rank, as `rank_sequences` reads it)."""
    track = track_of(scan)
    if track is None or not len(track):
        return False
    start, stop = bisect_left(track.line, first), bisect_left(track.line, end)
    if scan.info.rank is not None:
        return stop > start
    return any(track.rank[i] != NO_RANK for i in range(start, stop))


def _launcher_copies(scans: Sequence[FileScan], restarted: set[str]) -> list[str]:
    """Launcher logs in a folder that holds a restarted agent's tree."""
    return [
        scan.info.path
        for scan in scans
        if scan.info.kind == FileKind.LAUNCHER
        and any(agent.startswith(folder_prefix(scan.info.path)) for agent in restarted)
    ]


def _one_agents_console(reports: dict[str, list[int]], last: int) -> dict[str, list[int]]:
    """The console of a job's one agent that no cut divides (it holds the agent's own lines
    alone, the ranks logging into files of their own), when its reports of failed children
    are one per run: each report ends a run, the last one the job or the run before a clean
    one. Several agents' consoles are not numbered this way: an agent restarted by another
    node's restart reports nothing for that run."""
    consoles = {path: lines for path, lines in reports.items() if lines}
    if len(consoles) != 1 or last == 0:
        return {}
    path, lines = consoles.popitem()
    return {path: lines} if len(lines) in (last, last + 1) else {}


class Attempts:
    """Which attempt of a restarted job wrote each line of a bundle."""

    def __init__(self, scans: Sequence[FileScan]):
        self._folder: dict[str, int] = {}
        self._restarts: dict[str, list[int]] = {}
        self._agent: dict[str, dict[int, int]] = {}  # a launcher log's own lines, numbered
        reports: dict[str, list[int]] = {}  # its one agent's reports of failed children
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
                reports[scan.info.path] = agent_reports(scan)
        numbers = [*self._folder.values(), *(len(v) for v in self._restarts.values())]
        self.last = max(numbers, default=0)
        consoles = sum(scan.info.kind == FileKind.LAUNCHER for scan in scans)
        one_agent = consoles == 1 and not self._folder
        self._reported = _one_agents_console(reports, self.last) if one_agent else {}

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
            # a cut is the first line of the attempt it begins (the line after the agent's
            # report, a rank's start line again), as `StoppedRun.keeps` reads it
            return bisect_right(self._restarts[path], line)
        if path in self._reported:
            # the k-th report ends attempt k-1; the final failure record after the last report
            # describes the run that ended the job
            return min(bisect_left(self._reported[path], line), self.last)
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
