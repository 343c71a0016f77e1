"""Ranks the launcher's agent itself stopped or killed while it tore a failed group down:
they were alive after the first failure, so they are not the peer that went away, and the kill
names no culprit (docs/labelling.md#a-launchers-own-kill-of-the-survivors).

The agent names each child it stops, and its summary records each child's end::

    Sending process 16463 closing signal SIGTERM
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from analyzers.causal.local_ranks import elastic_failures
from analyzers.classify.process_ends import own_exit, teardown_kills
from analyzers.core.types import FileScan
from analyzers.formats.elastic import signal_name


def teardown_killed(scans: Sequence[FileScan]) -> frozenset[int]:
    """Ranks torchrun's summary records as killed with the signal its agent sends a survivor
    after the grace period, at a time after another child's record of an exit of its own (an
    error status, a crash): the agent was stopping the job for that child, and the kill is its
    teardown, which names no culprit (docs/labelling.md#a-launchers-own-kill-of-the-survivors).
    A kill recorded first, or with no such exit before it, is no teardown."""
    spared: set[int] = set()
    for scan in scans:
        records = [
            (r.get("rank"), _record_time(r), r, _signal_of(r)) for r in elastic_failures(scan)
        ]
        spared.update(rank for rank in teardown_kills(records) if isinstance(rank, int))
    return frozenset(spared)


# torchelastic's agent names each child it stops while it tears a failed group down:
# `Sending process 16463 closing signal SIGTERM`
_AGENT_STOP = re.compile(r"\bSending process (\d+) closing signal (SIG[A-Z]+)\b")


def agent_stopped(scans: Sequence[FileScan]) -> frozenset[int]:
    """Ranks the agent's own lines say it stopped (`Sending process <pid> closing signal
    SIGTERM`, or the SIGKILL after the grace period) and its summary records with that
    signal, beside a child of the same summary that ended by itself (an error status, a
    crash): the agent was tearing the group down for that child. The summary stamps its
    records to the second, so a kill and the exit it answers often share one time; the
    agent's line says which was which. A pid the agent did not name, or a summary whose
    children were all stopped (the agent itself was signalled), is no such teardown.
    Such a child was alive when the agent stopped it, after the first failure; whether it
    was also stuck is not told (docs/labelling.md#a-launchers-own-kill-of-the-survivors)."""
    found: set[int] = set()
    for scan in scans:
        found.update(_agent_stopped(scan))
    return frozenset(found)


def _agent_stopped(scan: FileScan) -> set[int]:
    records = elastic_failures(scan)
    if not any(own_exit(r) for r in records):
        return set()
    stopped = {
        int(found.group(1)): found.group(2)
        for event in scan.events
        if (found := _AGENT_STOP.search(event.text))
    }
    return {
        rank
        for r in records
        if isinstance(rank := r.get("rank"), int)
        and (name := stopped.get(r.get("pid"))) is not None  # type: ignore[arg-type]
        and _signal_of(r) == name
    }


def _signal_of(record: Mapping[str, object]) -> str | None:
    named = record.get("signal")
    if isinstance(named, str):
        return named.upper()
    code = record.get("exitcode")
    return signal_name(code) if isinstance(code, int) else None


def _record_time(record: Mapping[str, object]) -> datetime | None:
    when = record.get("time")
    if not isinstance(when, str):
        return None
    try:
        return datetime.fromisoformat(when)
    except ValueError:
        return None
