"""A launcher agent's console kept under a name the bundle layout does not know.

`knowledge/layout.yaml` calls a file the launcher's when its name says so (`launcher.log`,
`torchrun.log`). People keep the agent's console under any name, one per node on a job of
several nodes (`node-0/agent.log`, `host-b/train.out`), and the layout then takes it for a
rank's log: the agent's records of how each child ended are read as that file's own errors,
before the rank's own lines. The content says whose it is: a file whose path names no rank
and which holds torchelastic's report of a failed child (`failed (exitcode: 1) local_rank:
1 (pid: ...)`, the `ChildFailedError` summary) was written by the agent, so it is read as a
launcher's file (its `[defaultN]:` copies of the ranks' lines stay theirs). Only beside files
of the ranks' own (a `--log-dir` tree, `log_<rank>.log`): a console that is the bundle's only
record of its ranks, or a single pasted log, keeps being read as theirs.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core.types import FileKind, FileScan

_GUESSED = frozenset({FileKind.RANK_LOG, FileKind.OTHER})


def mark_agent_consoles(scans: Sequence[FileScan]) -> None:
    """Read a file holding the agent's failure records, with no rank in its path, as the
    launcher's, when other files of the bundle are the ranks' own."""
    if not any(scan.info.rank is not None for scan in scans):
        return
    for scan in scans:
        info = scan.info
        if info.kind in _GUESSED and info.rank is None and scan.facts.get("elastic_failures"):
            info.kind = FileKind.LAUNCHER
