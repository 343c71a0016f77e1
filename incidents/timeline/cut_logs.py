"""Which ranks' logs stop mid-line, as the incident page tells them.

The analyzer names each rank file whose last line has no line end (`ranks[].log_cut`). In a
job's collected logs that is where a writer stopped mid-write (killed, a full disk, a copy cut
short), so the rank may have gone further than its file, its lane and its row show. A bundle
of one file is most often an excerpt pasted or copied out of a terminal, and an excerpt ends
wherever the copy ended, line end or not: there a missing line end says nothing about the
job, and the page does not flag it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def rank_cuts(summary: Mapping[str, Any], bundle: Mapping[str, Any] | None) -> list[dict]:
    """The rank's cut files (`{file, line}`) worth showing: none when the bundle is a lone file."""
    cuts = summary.get("log_cut") or []
    if not cuts or not collected_logs(bundle or {}):
        return []
    return [cut for cut in cuts if cut.get("file")]


def cut_ranks(report: Mapping[str, Any]) -> list[tuple[int, list[dict]]]:
    """(rank, its cut files) for every rank whose log stops mid-line, by rank."""
    bundle = report.get("bundle")
    found = (
        (summary["rank"], rank_cuts(summary, bundle))
        for summary in report.get("ranks") or []
        if isinstance(summary.get("rank"), int)
    )
    return sorted(((rank, cuts) for rank, cuts in found if cuts), key=lambda pair: pair[0])


def collected_logs(bundle: Mapping[str, Any]) -> bool:
    """Whether the bundle holds more than one file: a job's logs as collected, in which a
    file that stops mid-line stands out, rather than one excerpt someone saved."""
    files = len(bundle.get("files") or []) + int(bundle.get("files_not_listed") or 0)
    return files > 1
