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

from analyzers.core.types import Correlation, FileScan, RankStatus
from analyzers.timeline.rank_status import LauncherExit, elastic_exits

MIN_RANKS = 2  # one rank killed is that rank's death, whatever killed it


def killed_together(correlation: Correlation, scans: Sequence[FileScan]) -> bool:
    """Whether the launcher reports every rank killed by SIGKILL and none logged an error."""
    ranks = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    if len(ranks) < MIN_RANKS or any(r.status != RankStatus.KILLED for r in ranks):
        return False
    exits = elastic_exits(scans)
    return all(r.rank in exits and _sigkill(exits[r.rank]) for r in ranks)


def _sigkill(exit_: LauncherExit) -> bool:
    number = exit_.signal
    if number is None and exit_.exitcode is not None and exit_.exitcode < 0:
        number = -exit_.exitcode
    return number == signal.SIGKILL
