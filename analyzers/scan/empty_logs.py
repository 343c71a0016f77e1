"""Rank logs that hold nothing: an empty log proves nothing about its rank.

A collector that copied the logs before the job wrote them, a rank's stdout sent elsewhere,
or a disk that filled up leaves `log_0.log` and `log_1.log` at zero bytes. Such a file shows
neither that its rank made progress nor where it stopped, so a bundle whose rank logs are
all empty is no hang (the label of logs that show progress and then stop, `taxonomy.md`):
the report says the logs are empty instead (`report.multirank`, `pipeline`).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core.phrases import Said, say
from analyzers.core.types import FileKind, FileScan

NAMED = 4  # the empty logs named in the report's sentence; the rest are counted


def all_rank_logs_empty(scans: Sequence[FileScan]) -> list[str]:
    """The paths of the bundle's rank logs when there are some and every one is empty; else
    none (a rank log with a line in it is read as usual)."""
    logs = [scan.info for scan in scans if scan.info.kind == FileKind.RANK_LOG]
    if not logs or any(info.size_bytes or info.lines for info in logs):
        return []
    return [info.path for info in logs]


def empty_logs_said(paths: Sequence[str]) -> Said:
    """`the 2 rank logs are empty (job/log_0.log, job/log_1.log) ...`, naming a few."""
    named = ", ".join(paths[:NAMED]) + (", …" if len(paths) > NAMED else "")
    return say("bundle.empty_logs", count=f"{len(paths):,}", paths=named)
