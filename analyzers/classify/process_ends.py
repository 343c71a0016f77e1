"""How a rank's process ended, as its launcher's exit records and torch's distributed
excepthook tell it: an exit of its own (an error status or a crash, not the agent's stop), an
uncaught exception that left the program, or the launcher's own kill of a survivor.

Both the classifier (no recovery after such an end; a teardown kill ranks low) and the later
stages (`analyzers.causal.agent_teardown`, `analyzers.report.diagnose`) ask these questions, so
they live apart from the tiers::

    ... torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -11) local_rank: 3
    [rank3]: RuntimeError: ...
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from analyzers.checkpoints.patterns import is_success, teardown_signals, termination_signals
from analyzers.checkpoints.track import NO_RANK, track_of
from analyzers.core import regex_programs
from analyzers.core.types import FileScan
from analyzers.formats.elastic import SOURCE as ELASTIC_SOURCE
from analyzers.formats.elastic import signal_name
from analyzers.formats.outer_prefix import AGENT_ROLE, AGENT_TAG_LITERALS, match_behind


def stdout_copied_late(scan: FileScan) -> set[int]:
    """Ranks of an agent's `--tee` console whose progress after an error proves nothing: the
    agent copies each rank's stdout and stderr from two files read in turn, so a traceback
    often lands above the last progress lines the rank printed before it. A rank the same
    console reports failed with an exit status of its own (not the agent's stop signal), and
    that never logged its success line there, did not carry on after its error. Nor did a
    rank stopped by the agent's signal whose uncaught exception torch's distributed hook
    printed there (each traceback line led by `[rankN]: `): that hook prints only when the
    exception has left the program, so the process was ending however the agent stopped it."""
    records = scan.facts.get("elastic_failures") or ()
    # the agent's `failed (exitcode: 1) local_rank: 3` line names a local rank; its summary
    # record of the same child gives the global one
    global_of = {
        r.get("local_rank"): r.get("rank") for r in records if isinstance(r.get("rank"), int)
    }
    failed = {
        record.get("rank")
        if record.get("rank") is not None
        else global_of.get(record.get("local_rank"))
        for record in records
        if own_exit(record)
    }
    if records:
        failed |= _ended_by_uncaught(scan)
    if not failed:
        return set()
    track = track_of(scan)
    finished = set()
    success = {i for i, text in enumerate(track.texts) if is_success(text)} if track else set()
    if track is not None and success:  # the per-line walk only when a success line exists
        for text_id, rank in zip(track.text, track.rank, strict=True):
            if text_id in success:
                finished.add(rank if rank != NO_RANK else scan.info.rank)
    return {rank for rank in failed if isinstance(rank, int) and rank not in finished}


# torch's distributed excepthook leads every line of an uncaught exception with the rank (behind
# a launcher's tag, and a collector's prefix: `formats.outer_prefix`)
_HOOK_PREFIX = regex_programs.compile(r"(?:\[" + AGENT_ROLE + r"\d+\]:)?\[rank(?P<rank>\d+)\]: ")

_HOOK_LITERALS = AGENT_TAG_LITERALS  # the bracket of both tags


def _ended_by_uncaught(scan: FileScan) -> set[int]:
    """Ranks whose uncaught exception torch's distributed hook printed in this file: the
    exception line of a traceback that is not a thread's, a caught one logged as a warning, a
    prompt's or one chained to another, led by the same rank's `[rankN]: `."""
    lines = {
        record["line"]: record.get("rank")
        for record in scan.facts.get("tracebacks") or ()
        if isinstance(record.get("rank"), int)
        and not record.get("chained")
        and not record.get("thread")
        and not record.get("warned")
        and not record.get("interactive")
        and record.get("type") != "re-raise"
    }
    ended = set()
    for event in scan.events:
        rank = lines.get(event.line)
        if rank is None:
            continue
        found = match_behind(_HOOK_PREFIX, event.text, _HOOK_LITERALS)
        if found is not None and int(found.group("rank")) == rank:
            ended.add(rank)
    return ended


def ended_on_error(scans: Sequence[FileScan], rank: int | None) -> bool:
    """The rank's process ended on an error: a launcher's summary records an exit of its own
    for it (an error status or a crash, not the agent's stop), or torch's distributed hook
    printed its uncaught exception (`[rankN]: ` before each line), which it does only once the
    exception has left the program. A rank that printed its success line and then ended this
    way did not finish: what it ran after the success failed."""
    if rank is None:
        return False
    for scan in scans:
        records = scan.facts.get("elastic_failures") or ()
        global_of = {
            r.get("local_rank"): r.get("rank") for r in records if isinstance(r.get("rank"), int)
        }
        for record in records:
            its = record.get("rank")
            its = its if its is not None else global_of.get(record.get("local_rank"))
            if its == rank and own_exit(record):
                return True
        if rank in _ended_by_uncaught(scan):
            return True
    return False


# the exit status in the one-line message `formats.elastic` gives each summary record
_RECORD_EXIT = regex_programs.compile(r"\bexitcode: (?P<code>-?\d+)")


def teardown_kill_lines(scan: FileScan) -> set[int]:
    """Lines of launcher summary records of ranks the launcher killed itself while it stopped
    the survivors of a failed rank (docs/labelling.md#a-launchers-own-kill-of-the-survivors):
    a record whose signal is one the launcher sends after its grace period (SIGKILL), timed
    after another rank's record of an exit of its own (an error status or a crash). A kill
    recorded first, or with no such failure before it, keeps its reading as a kill from
    outside."""
    records = []
    for event in scan.events:
        found = _RECORD_EXIT.search(event.message or "") if event.source == ELASTIC_SOURCE else None
        if found is not None:
            code = int(found.group("code"))
            records.append((event.line, event.timestamp, {"exitcode": code}, signal_name(code)))
    return teardown_kills(records)


K = TypeVar("K")


def teardown_kills(
    records: Iterable[tuple[K, Any, Mapping[str, object], str | None]],
) -> set[K]:
    """The keys of launcher records (key, time, record, signal name) that the launcher killed
    with the signal it sends survivors after its grace period, timed after another record's
    exit of its own: the kill was the launcher's teardown of a failed job. Untimed records
    take no part, as their order is not known."""
    timed = [(key, at, record, name) for key, at, record, name in records if at is not None]
    kills = teardown_signals()
    owned = [at for _, at, record, name in timed if own_exit(record) and name not in kills]
    if not owned:
        return set()
    first = min(owned)
    return {key for key, at, _, name in timed if name in kills and at > first}


def own_exit(record: Mapping[str, object]) -> bool:
    """A child that ended with an error status or a signal of its own, not the agent's stop."""
    code = record.get("exitcode")
    if not isinstance(code, int) or code == 0:
        return False
    if code > 0:
        return True
    name = record.get("signal")
    if not isinstance(name, str):
        try:
            name = signal.Signals(-code).name
        except ValueError:
            return True
    return name.upper() not in termination_signals()
