"""Every rank killed with SIGKILL at once: a stop from outside, not a rank that died.

A rank killed with SIGKILL while its peers ran on is read as that rank's death (the OOM
killer picks one process, `device_fault` with `oom` beside it). When the launcher reports
every rank it started as killed by SIGKILL and no rank logged an error of its own, nothing
picked one of them: someone or something outside the job killed them all (an operator's
`kill -9` of the workers, a scheduler's hard stop), and the launcher's first record only
names whichever child it noticed first. That is read as "A job stopped from outside"
(docs/labelling.md): when the ranks' checkpoints single out who stalled, the job is a hang
blamed on them.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence

from analyzers.causal.chain import CausalChain
from analyzers.classify.matches import Classified
from analyzers.core.types import Correlation, FileScan, RankStatus
from analyzers.timeline.rank_status import LauncherExit, elastic_exits

MIN_RANKS = 2  # one rank killed is that rank's death, whatever killed it
# faulthandler's report of a SIGABRT, and the list of extension modules it ends its dump with
ABORT_RECORDS = frozenset({"dev.python_fatal_abort"})
_ABORT_DUMP = ABORT_RECORDS | {"dev.fatal_error_module_list"}
_STOPPED = (RankStatus.KILLED, RankStatus.HUNG)


def killed_together(correlation: Correlation, scans: Sequence[FileScan]) -> bool:
    """Whether the launcher reports every rank killed by SIGKILL and none logged an error."""
    ranks = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    if len(ranks) < MIN_RANKS or any(r.status != RankStatus.KILLED for r in ranks):
        return False
    exits = elastic_exits(scans)
    return all(r.rank in exits and _sigkill(exits[r.rank]) for r in ranks)


def stopped_together(
    items: Sequence[Classified], correlation: Correlation, scans: Sequence[FileScan]
) -> bool:
    """Whether every rank was stopped by a signal from outside and none logged an error: the
    launcher records each one ended by SIGTERM (a hang watchdog that dumped the
    ranks' stacks and then stopped them, `exitcode: -15` for every local rank), or a launch
    script's status line says so of each (`exited with status 143`, or 124, the status of
    `timeout` when it stopped the command; the lines `signalled_stop` marks). Nothing picked
    one rank: the stop is the operator's, and the ranks' checkpoints or dumps say who stalled.
    One child the launcher saw end otherwise (SIGKILL, a crash signal, a status) failed first,
    and the SIGTERM of the others is the agent's own teardown after it.
    docs/labelling.md, "A job stopped from outside all at once"."""
    ranks = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    if len(ranks) < MIN_RANKS or any(r.status not in _STOPPED for r in ranks):
        return False
    exits = elastic_exits(scans)
    if any(_signal(exit_) != signal.SIGTERM for exit_ in exits.values()):
        return False  # one child killed or crashed first, the agent's SIGTERM stopped the rest
    stopped = set(exits)
    for item in items:
        best = item.best
        if best is not None and best.signature.signalled_stop:
            stopped.update(best.culprits)
    return all(r.rank in stopped for r in ranks)


def aborted_together(chain: CausalChain, correlation: Correlation) -> bool:
    """Whether every rank ended on faulthandler's `Fatal Python error: Aborted` and no rank
    logged an error of its own: a process aborts itself after a failed native check, and then
    alone, with the check's message before the abort. Every rank aborting in the same moment with
    nothing before it is a SIGABRT sent to the whole group from outside (a hang monitor that
    aborts the workers so each dumps its stacks and the launcher can restart them), read as the
    SIGTERM of "A job stopped from outside all at once" (docs/labelling.md): the launcher's
    `exitcode: -6` names whichever child it noticed first, and the checkpoints or dumps say who
    stalled. One rank's abort while its peers lost it, or an abort after an error line, keeps
    the crash's reading."""
    first = chain.first
    if first is None or first.best is None or first.best.signature.id not in ABORT_RECORDS:
        return False
    ranks = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    if len(ranks) < MIN_RANKS:
        return False
    aborted: set[int | None] = set()
    for item in [first, *chain.top]:
        signature = item.best.signature if item.best is not None else None
        if signature is None:
            return False
        if signature.id in ABORT_RECORDS:
            aborted.add(item.rank)
        elif signature.id not in _ABORT_DUMP and not signature.cause_if_silent:
            return False
    return ranks <= aborted


def _signal(exit_: LauncherExit) -> int | None:
    number = exit_.signal
    if number is None and exit_.exitcode is not None and exit_.exitcode < 0:
        number = -exit_.exitcode
    return number


def _sigkill(exit_: LauncherExit) -> bool:
    return _signal(exit_) == signal.SIGKILL
