"""A setting that only one node's environment carries.

A job of several nodes is often collected one folder per node, each with the node's
environment dump beside its logs:

    node0/env.txt      NNODES=2  NODE_RANK=0  ...
    node1/env.txt      NNODES=2  NODE_RANK=1  ...  MOE_CAPACITY_FACTOR=0.75
    node1/.../stderr.log   what():  [enforce fail ...] op.preamble.length <= op.nbytes. 512 vs 384

gloo's size check aborts the rank that received more than it posted and names no sender, so
the line alone cannot say whether the sender sent too much or the receiver posted too little
(docs/labelling.md, "A rank that aborts on what a peer sent"). A variable that one node's dump
sets and no other node's dump sets at all is a setting only that node's ranks ran with, the
usual way one node's ranks come to run another code path: they are the culprits. Names that
say which node or process a dump belongs to (`HOSTNAME`, `NODE_RANK`, `SSH_CLIENT`, ...) differ
between any two nodes and are not settings. A variable that every node sets, with other values
on some, does not say which node is the odd one out and is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from analyzers.core import regex_programs
from analyzers.core.types import FileKind, FileScan

# name parts that say which machine, node or process a dump belongs to, not how the job runs
_IDENTITY = regex_programs.compile(
    r"(?:^|_)(?:HOST(?:NAME)?|NODE(?:ID|NAME|LIST)?|RANK|ADDR|IP|PID|PPID|PWD|OLDPWD|SHLVL|SSH|"
    r"POD|ID|UID|NAME|TERM|SESSION|TMPDIR|DISPLAY|INDEX|INSTANCE|MACHINE|ZONE|DATE|TIME|SEED)"
    r"(?:_|$)"
)


def odd_node_setting(scans: Sequence[FileScan]) -> tuple[list[str], list[int]] | None:
    """The settings one node's environment dump alone carries and that node's ranks, when
    exactly one node folder's dump adds names the other nodes' dumps lack."""
    dumps: dict[PurePosixPath, set[str]] = {}
    for scan in scans:
        names = scan.facts.get("env_names")
        if scan.info.kind == FileKind.ENV and names:
            folder = PurePosixPath(scan.info.path).parent
            dumps.setdefault(folder, set()).update(
                name for name in names if not _IDENTITY.search(name) and name != "_"
            )
    if len(dumps) < 2 or len({folder.parent for folder in dumps}) != 1:
        return None  # one node's folders side by side, nothing to compare
    ranks = {folder: _ranks_under(folder, scans) for folder in dumps}
    if not all(ranks.values()):
        return None
    odd = {
        folder: sorted(names - set().union(*(other for f, other in dumps.items() if f != folder)))
        for folder, names in dumps.items()
    }
    adding = [folder for folder, extra in odd.items() if extra]
    if len(adding) != 1:
        return None
    return odd[adding[0]], sorted(ranks[adding[0]])


def _ranks_under(folder: PurePosixPath, scans: Sequence[FileScan]) -> set[int]:
    return {
        scan.info.rank
        for scan in scans
        if scan.info.rank is not None and folder in PurePosixPath(scan.info.path).parents
    }
