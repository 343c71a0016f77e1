"""Which ranks' own logs the bundle holds empty, and which of the job's ranks it holds none of.

`log_2.log` at 0 bytes beside `log_0.log` and `log_1.log` full of progress is rank 2's own log,
in the bundle but empty; with `WORLD_SIZE=4` in `env.txt` and no rank log naming rank 3, rank 3
has no log at all. A rank's own log is its rank log: a plog or device log naming the rank is not
its output, and a rank whose lines turn up elsewhere (a launcher's console) logged something and
is neither.

The two prove different things. An empty own log shows its rank reached no checkpoint (beside
full ones, a process that went away with its output still in a buffer: `report.multirank`); a
log never collected proves nothing, so no checkpoint is known to be common to all ranks
(`timeline.correlate`, `report.bundle_info` states it). Both are read here, once, onto the
correlation, so no stage judges a rank's log another way.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import FileInfo, FileKind, FileScan, RankLogs

NAMED = 4  # the empty logs named in the report's sentence; the rest are counted


def rank_logs(scans: Sequence[FileScan], missing: Sequence[int]) -> RankLogs:
    """`missing`: the ranks of the job that left no line anywhere in the bundle."""
    own = {scan.info.rank for scan in scans if _own_log(scan.info)}
    return RankLogs(
        empty=tuple(rank for rank in missing if rank in own),
        logless=tuple(rank for rank in missing if rank not in own),
        all_empty=_all_empty([scan.info for scan in scans], set(missing)),
    )


def _own_log(info: FileInfo) -> bool:
    return info.kind == FileKind.RANK_LOG and info.rank is not None


def _all_empty(files: Sequence[FileInfo], missing: Collection[int]) -> tuple[str, ...]:
    """Every rank log's path when there are some and none shows a line: each is empty, and
    the rank it names (if any) wrote nothing elsewhere either."""
    logs = [info for info in files if info.kind == FileKind.RANK_LOG]
    if not logs or any(_shows_a_line(info, missing) for info in logs):
        return ()
    return tuple(info.path for info in logs)


def _shows_a_line(info: FileInfo, missing: Collection[int]) -> bool:
    """The log holds a line, or the rank it names wrote one in another file."""
    return bool(info.size_bytes or info.lines) or (
        info.rank is not None and info.rank not in missing
    )


def empty_logs_said(paths: Sequence[str]) -> Said:
    """`all 2 rank logs are empty (0 bytes: job/log_0.log, job/log_1.log) ...`, naming a few."""
    named = ", ".join(paths[:NAMED]) + (", …" if len(paths) > NAMED else "")
    return say("bundle.empty_logs", count=f"{len(paths):,}", paths=named)


def logless_said(ranks: Sequence[int], world: int) -> Said:
    """`rank 3 of the job's 4 has no log in the bundle; ...`: why no checkpoint is common."""
    return say("bundle.missing_logs", many=several(ranks), ranks=ranks_said(ranks), world=world)
