"""Where a later attempt of a restarted job begins in a file every attempt wrote into.

Not every restarted job keeps one folder per attempt. Without `--log-dir` the workers write
into the launcher's own console, and a job script that retries the group itself appends
each attempt to the same `log_<rank>.log`:

    [default2]:[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied ...
    E1204 20:52:14.921000 32754 .../api.py:1002] failed (exitcode: 1) local_rank: 2 ...
    [default2]:... load weights passed        <- the same rank's first checkpoint again

A rank that logged an error and then prints its own first checkpoint again was started
anew: that is where a later attempt begins in such a file (`restart_lines`). When the
launcher's report of the failed child stands between the two, the new attempt begins after
that report. A rank whose first checkpoint repeats before any error (a loop that prints it
every step) gives no such mark, and so does an error printed before the rank's previous
progress line: a launcher's console gets each rank's output in blocks as its pipe is flushed,
so another rank's traceback can stand above a whole block in which a rank goes through its
layers once, printing its first checkpoint again at every layer. Such a rank still starts
anew where the launcher reported a failed child between its last progress line and the
repeat: the agent reports a child only once the worker group has stopped, so what the rank
prints after it is the next attempt's (a rank whose first checkpoint is `  norm passed`,
printed again in every layer, is cut there too).

A restarted group may also die before any rank prints a checkpoint again (the new attempt's
ranks fail to connect to addresses the failed attempt left in the store), so no repeat marks
it. The agent still reports each run of its group that failed, once: a second report by the
same agent (the same pid in its glog header) means the group ran again, and whatever the
ranks printed after the first report is the next attempt's.

A job that logs to its own `log_<rank>.log` in append mode keeps no agent's report in the
file, and a rank the agent stopped (a straggler SIGTERMed while its peers timed out) logged no
error before the next attempt. Each process still opens its attempt with the rank's start line
(`formats.start_lines`: `init process group: ... rank=1 world_size=4`): the same line again,
numbers aside, after the rank's progress is where the next attempt begins, whether or not that
attempt printed a checkpoint (one that died in `init_process_group` printed none). The first
start line has to stand before the first checkpoint, the file has to be one rank's, and the
new attempt's first checkpoint, if any, has to be the rank's first one again, or one it had
already closed when it logged an error before the start line: a job that resumes from its
last save begins again at the step after the save (`iteration 6 done` after `iteration 8
done`, an error and the start line), not at its first.

A console several ranks wrote into is cut by their start lines as well (`_console_starts`),
where the agent's reports do not stand between the attempts: `torchrun --tee` redirected to a
file buffers its copies of the ranks' stdout while the tracebacks and reports on its stderr are
written at once, so the first report can stand above all of attempt 0's progress. Each rank's
start line again, after its progress and followed by its progress from the beginning, marks its
next attempt; the earliest rank's marks where the attempt begins in the file. These cuts place
the checkpoints only (`progress_restart_lines`): the error lines came on stderr, in order with
the reports, and keep the reports' cuts (`restart_lines`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import pairwise

from analyzers.checkpoints.track import NO_RANK, CheckpointTrack, track_of
from analyzers.core.types import Event, EventKind, FileScan

# torchrun's agent reporting a child that failed: the worker group ends there
_CACHE = "restart_lines"  # FileScan.facts key: the lines, once read (every stage asks)
_PROGRESS_CACHE = "progress_restart_lines"  # the same for the checkpoints' cuts
_STARTS = "start_lines"  # FileScan.facts key of formats.start_lines: [(line, rank, folded text)]
_CONSOLE_STARTS = "console_start_lines"  # formats.start_lines.CONSOLE_STARTS: {rank: [lines]}
_SAME_START = 16  # checkpoints after a console rank's start line again compared with its first
_CHILD_FAILED = re.compile(r"\bfailed \(exitcode: -?\d+\) local_rank: \d+")
# the glog header of the agent's line: "E1205 02:26:15.106000 10157 torch/..."; group 1 the pid
_AGENT_PID = re.compile(r"^\s*\[?[IWEFVC]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+(\d+)\s")


def restart_lines(scan: FileScan) -> list[int]:
    """Lines where a later attempt begins in a file several attempts wrote into (empty when
    the file holds one run), as the file's error lines are placed in attempts."""
    cached = scan.facts.get(_CACHE)
    if isinstance(cached, list):
        return cached
    found = _restarts(scan, console=False)
    scan.facts[_CACHE] = found
    return found


def progress_restart_lines(scan: FileScan) -> list[int]:
    """`restart_lines` as the file's checkpoints are placed in attempts: in a console several
    ranks wrote into, the ranks' start lines again cut it too (`_console_starts`). Its buffered
    stdout copies can come after the reports its stderr got at once, so the reports place the
    error lines and the start lines place the progress."""
    cached = scan.facts.get(_PROGRESS_CACHE)
    if isinstance(cached, list):
        return cached
    found = _restarts(scan, console=True) if _CONSOLE_STARTS in scan.facts else restart_lines(scan)
    scan.facts[_PROGRESS_CACHE] = found
    return found


def _restarts(scan: FileScan, console: bool) -> list[int]:
    track = track_of(scan)
    if track is None or not len(track):
        return []
    errors = sorted(e.line for e in scan.events if e.kind == EventKind.ERROR)
    started = _started_again(scan, track, errors)
    if not errors:
        return started
    reported = [
        e
        for e in scan.events
        if e.kind == EventKind.ERROR and _CHILD_FAILED.search(e.message or e.text)
    ]
    reports = sorted(e.line for e in reported)
    found = _repeats(scan, track, errors, reports) if max(track.line) > errors[0] else []
    if console:
        found = sorted({*found, *_console_starts(scan, track, found)})
    return _with_starts(_group_reported_again(reported, found), started, track)


def starts_cut(scan: FileScan) -> bool:
    """True when the file's repeated start lines are read for its cuts: one rank's file
    whose first start line stands before its progress (`_started_again`)."""
    track = track_of(scan)
    return track is not None and len(track) > 0 and bool(_one_ranks_starts(scan, track))


def _one_ranks_starts(scan: FileScan, track: CheckpointTrack) -> list[tuple[int, int, str]]:
    """The file's start lines when they can mark its attempts, else empty."""
    starts = scan.facts.get(_STARTS)
    if not isinstance(starts, list) or len(starts) < 2:
        return []
    first_line, rank, _ = starts[0]
    named = set(track.rank) - {NO_RANK}
    if any(other != rank for _, other, _ in starts) or not named <= {rank}:
        return []  # several ranks' lines: a console, cut by the agent's reports
    if scan.info.rank is not None and scan.info.rank != rank:
        return []
    if first_line > track.line[0]:
        return []  # stated after the progress began: no start line
    return starts


def _started_again(scan: FileScan, track: CheckpointTrack, errors: list[int]) -> list[int]:
    """Lines where one rank's start line comes again after its progress (module doc). The
    new attempt's first checkpoint is the rank's first one, or, when the rank logged an error
    since its last progress, one it closed before: a job that resumes from its last save
    begins again at the step after it, which the failed attempt had already passed."""
    starts = _one_ranks_starts(scan, track)
    if not starts:
        return []
    key, lines = starts[0][2], track.line
    found = []
    for line, _, text in starts[1:]:
        if text != key or line < lines[0]:
            continue
        after = bisect_right(lines, line)
        if after < len(lines) and track.text[after] != track.text[0]:
            # the cheap test first: looking for an earlier entry walks the rank's progress
            resumed = _error_between(errors, lines[after - 1], line) and (
                track.text[after] in track.text[:after]
            )
            if not resumed:
                continue  # the progress goes on where it was: the same process
        found.append(line)
    return found


def _console_starts(scan: FileScan, track: CheckpointTrack, cuts: list[int]) -> list[int]:
    """Cuts of a console several ranks wrote into where their start lines come again (module
    doc): the k-th attempt after the first begins at the earliest of the ranks' k-th repeats.
    A rank's repeat counts when it printed progress since its first start line and what it
    prints after it (up to its next repeat) begins as its progress began, checkpoint for
    checkpoint: a first checkpoint that every layer prints again (`  norm passed`) does not
    tell a new process from a layer further on, the `layer N passed` lines after it do. A cut
    that another reading already made between the last progress line and the repeat is not
    made twice."""
    console = scan.facts.get(_CONSOLE_STARTS)
    if not isinstance(console, dict):
        return []
    progress: dict[int, tuple[list[int], list[int]]] = {}
    for rank, text, line in zip(track.rank, track.text, track.line, strict=True):
        lines, texts = progress.setdefault(rank, ([], []))
        lines.append(line)
        texts.append(text)
    again_by_rank: list[list[int]] = []
    for rank, (first, *repeats) in console.items():
        lines, texts = progress.get(rank, ([], []))
        if not lines or lines[0] < first:
            continue  # no progress, or progress before the rank's start line: no start line
        kept = []
        for index, again in enumerate(repeats):
            after = bisect_right(lines, again)
            until = repeats[index + 1] if index + 1 < len(repeats) else None
            end = len(lines) if until is None else bisect_right(lines, until)
            span = min(_SAME_START, end - after)
            if after == 0 or texts[after : after + span] != texts[:span]:
                continue  # no progress yet, or the progress goes on where it was
            kept.append(again)
        again_by_rank.append(kept)
    found = []
    for k in range(max((len(kept) for kept in again_by_rank), default=0)):
        cut = min(kept[k] for kept in again_by_rank if len(kept) > k)
        before = bisect_right(track.line, cut - 1)
        last_progress = track.line[before - 1] if before else 0
        if not any(last_progress < other <= cut for other in cuts):
            found.append(cut)
    return found


def _with_starts(cuts: list[int], started: list[int], track: CheckpointTrack) -> list[int]:
    """The cuts of both readings, one per attempt: a repeat of the first checkpoint that
    follows a start line with no progress between is the same attempt's beginning."""
    lines = track.line
    kept = [
        cut
        for cut in cuts
        if not any(
            s <= cut and bisect_right(lines, s - 1) == bisect_right(lines, cut - 1) for s in started
        )
    ]
    return sorted({*kept, *started})


def _group_reported_again(reported: list[Event], found: list[int]) -> list[int]:
    """Cuts after an agent's report of a failed child that the same agent reports again later:
    its group ran once more in between, whether or not the new run printed a checkpoint."""
    by_agent: dict[str, list[int]] = {}
    for event in reported:
        pid = _AGENT_PID.match(event.text)
        if pid is not None:
            by_agent.setdefault(pid.group(1), []).append(event.line)
    cuts = set(found)
    for lines in by_agent.values():
        lines.sort()
        for first, again in pairwise(lines):
            if not any(first < cut <= again for cut in cuts):
                cuts.add(first + 1)
    return sorted(cuts)


def agent_attempts(scan: FileScan) -> dict[int, int]:
    """The attempt each of the agent's own lines belongs to, by line, in a launcher log kept
    beside an attempt tree (module doc: the agent reports each failed run of its group once).
    Its k-th report of a failed child ends attempt k-1, and its lines up to that report (the
    SIGTERMs it sent the other children) are that attempt's; its lines after the last report
    are the next run's. Empty when the file holds no report, or reports of several agents."""
    pid, reports = _one_agents_reports(scan)
    if pid is None:
        return {}
    return {
        e.line: bisect_left(reports, e.line)
        for e in scan.events
        if (found := _AGENT_PID.match(e.text)) is not None and found.group(1) == pid
    }


def agent_reports(scan: FileScan) -> list[int]:
    """The lines of a launcher log where its one agent reports a failed child, in order (empty
    when it holds none, or reports of several agents)."""
    return _one_agents_reports(scan)[1]


def _one_agents_reports(scan: FileScan) -> tuple[str | None, list[int]]:
    reported = [
        e
        for e in scan.events
        if e.kind == EventKind.ERROR and _CHILD_FAILED.search(e.message or e.text)
    ]
    pids = {found.group(1) if (found := _AGENT_PID.match(e.text)) else None for e in reported}
    if len(pids) != 1 or None in pids:
        return None, []
    return pids.pop(), sorted(e.line for e in reported)


def _repeats(
    scan: FileScan, track: CheckpointTrack, errors: list[int], reports: list[int]
) -> list[int]:
    """Cuts where a rank that logged an error prints its own first checkpoint again."""
    first_text: dict[int, int] = {}
    looping: set[int] = set()
    seen: set[int] = set()  # ranks that printed progress in the current attempt
    previous: dict[int, int] = {}  # each rank's last progress line so far
    start, last_seen = 0, 0
    found: list[int] = []
    for index in range(len(track)):
        rank, text, line = track.rank[index], track.text[index], track.line[index]
        if rank == NO_RANK and scan.info.rank is not None:
            rank = scan.info.rank
        if rank not in first_text:
            first_text[rank] = text
        elif text == first_text[rank] and rank in seen:
            since = max(start, previous[rank])
            if _error_between(errors, since, line) and (
                rank not in looping or _after_report(reports, since, line)
            ):
                begin = _after_report(reports, last_seen, line) or line
                found.append(begin)
                start, seen = begin, set()
            else:
                looping.add(rank)
        seen.add(rank)
        previous[rank] = last_seen = line
    return found


def _error_between(errors: list[int], start: int, end: int) -> bool:
    index = bisect_right(errors, start)
    return index < len(errors) and errors[index] < end


def _after_report(reports: list[int], start: int, end: int) -> int | None:
    """The line after the last launcher report of a failed child between two lines."""
    inside = [line for line in reports if start < line < end]
    return inside[-1] + 1 if inside else None
