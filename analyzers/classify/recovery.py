"""Errors a writer went on past count like warnings: a rank that kept logging progress after
its error (in the same attempt of a restarted job), a slip at an interactive prompt the session
raised again after, an exception a program caught and logged as a warning before it raised
again.

Each lowers a line by `RECOVERED_PENALTY` and marks it `recovered`, so the first error is the
one that stopped something::

    >>> import fastmt
    NameError: name 'fastmt' is not defined        # a slip: the session raised again later
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from analyzers.checkpoints.patterns import is_success
from analyzers.checkpoints.track import NO_RANK, last_line_by_rank, track_of
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_NOISE
from analyzers.classify.traceback_records import carrier_lines
from analyzers.core.types import FileKind, FileScan

RECOVERED_PENALTY = 1.5

# what a mistyped statement raises at the prompt: a name or an attribute that does not exist,
# or a statement Python cannot parse
_PROMPT_SLIPS = frozenset({"NameError", "AttributeError", "SyntaxError", "IndentationError"})


def pass_over_prompt_slips(items: Sequence[Classified], scan: FileScan) -> None:
    """A pasted interactive session (`>>>` statements and what they printed): the prompt
    prints each exception and waits for the next statement, so an exception there ended
    nothing. A mistyped name or attribute, or a statement that does not parse, also leaves
    nothing behind that a later statement could fail on; when the same session raised again
    later, the slip counts like a warning and the later exception is the failure. An import
    that failed is no slip: the module it left unbound is what later statements miss."""
    records = [r for r in scan.facts.get("tracebacks") or () if r.get("interactive")]
    if len(records) < 2:
        return
    last = max(record["line"] for record in records)
    slips = {
        record["line"]
        for record in records
        if record["line"] < last and record.get("type", "").rsplit(".", 1)[-1] in _PROMPT_SLIPS
    }
    for item in items:
        if item.event.line in slips and item.tier > TIER_NOISE:
            item.tier = max(item.tier - RECOVERED_PENALTY, TIER_NOISE)
            item.recovered = True


def pass_over_logged_warnings(items: Sequence[Classified], scan: FileScan) -> None:
    """An exception a program caught and logged as a warning (`logger.warning(...,
    exc_info=True)`: a WARNING record, then the traceback right under it) ended nothing when
    the same writer raised again later in the file: the program went on (a loader that
    falls back to another file, then gives up), and the later exception is the failure. The
    caught one counts like a warning. Alone in its file, it keeps its weight: an uncaught
    crash can follow any record. A later traceback that belongs to this exception is no
    new raise: one chained to it (`During handling of the above exception`), or the child's
    traceback a wrapper carries (`-- Process 3 terminated with the following error:`)."""
    records = scan.facts.get("tracebacks") or ()
    carriers = carrier_lines(scan)
    raised = [
        record
        for record in records
        if not record.get("chained") and record.get("type") != "re-raise"
    ]
    caught = {
        record["line"]
        for record in records
        if record.get("warned")
        and record["line"] not in carriers
        and any(
            later["line"] > record["line"]
            and (record.get("rank") is None or later.get("rank") in (None, record.get("rank")))
            for later in raised
        )
    }
    for item in items:
        if item.event.line in caught and item.tier > TIER_NOISE:
            item.tier = max(item.tier - RECOVERED_PENALTY, TIER_NOISE)
            item.recovered = True


def logged_success(scan: FileScan) -> bool:
    """The file's ranks logged their run's success line."""
    track = track_of(scan)
    return track is not None and any(is_success(text) for text in track.texts)


def last_progress(scan: FileScan) -> dict[int | None, int]:
    """Line of the last checkpoint per rank in one file (None: any rank)."""
    last: dict[int | None, int] = {}
    track = track_of(scan)
    if track is not None:
        for rank, line in last_line_by_rank(track).items():
            owner = rank if rank != NO_RANK else scan.info.rank
            last[owner] = max(line, last.get(owner, 0))
    if last:
        last[None] = max(last.values())
    return last


def progress_by_attempt(scan: FileScan, restarts: list[int]) -> list[dict[int | None, int]]:
    """The last progress line per rank of each attempt, in a file several attempts of a
    restarted job wrote into (`checkpoints.restarts`): a rank that was started again did not
    recover from its error; only its progress in the same attempt says it carried on."""
    found: list[dict[int | None, int]] = [{} for _ in range(len(restarts) + 1)]
    track = track_of(scan)
    for index in range(len(track) if track is not None else 0):
        line, rank = track.line[index], track.rank[index]
        found[bisect_right(restarts, line)][rank if rank != NO_RANK else scan.info.rank] = line
    for last in found:
        if last:
            last[None] = max(last.values())
    return found


def _ranks_in(progress: dict[int | None, int]) -> int:
    return sum(1 for rank in progress if rank is not None)


def mark_recovered(item: Classified, progress: dict[int | None, int]) -> None:
    """An error after which the same rank kept logging progress did not stop it: it counts
    like a warning. A launcher's file mixes ranks, so there only the same rank counts; so
    does any file whose progress lines come from several ranks (one stdout the ranks share):
    a line no rank is named on may be the writer of a rank that never logged again (the C
    library's `free(): double free detected` before it aborts the process), and the others'
    progress says nothing about it."""
    if item.rank is None and (item.kind == FileKind.LAUNCHER or _ranks_in(progress) > 1):
        return
    if progress.get(item.rank, 0) > item.event.line and item.tier > TIER_NOISE:
        item.tier = max(item.tier - RECOVERED_PENALTY, TIER_NOISE)
        item.recovered = True
