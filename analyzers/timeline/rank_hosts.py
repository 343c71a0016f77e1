"""Which host each rank ran on; the report keeps it in `environment.rank_hosts` (rank -> host).

Two things name a host. The host label in front of a line (pdsh's or clush's `node7: `, the
journal's `Dec  7 00:12:01 node7 python[4121]: `: `scan.host_labels`) names the machine the
line was written on; a folder the bundle keeps one host's files in (`node-3/log_0.log`,
`host10.20.0.5/rank_3.log`: `host_folders` in `knowledge/layout.yaml`) names the machine its
files came from. A file's labels, where it has any, decide for it; its folder otherwise.

A rank is placed by the files that hold its lines: a file labelled by one host (or kept in one
host's folder) places every rank in it there; a file labelled by several hosts places a rank
only on the hosts whose labelled lines name it. A rank placed on two hosts (two hosts' local
rank 0 in one merged console that did not say which is which) is placed on neither: a wrong
host would send someone to the wrong machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core.types import FileScan, RankSummary
from analyzers.ingest.layout import host_folder
from analyzers.scan.host_labels import FACT


def rank_hosts(scans: Sequence[FileScan], ranks: Sequence[RankSummary]) -> dict[str, str]:
    """Rank (as the report's JSON keys it) -> host, for the ranks one host is named for."""
    labels = {scan.info.path: _labels(scan) for scan in scans}
    labels = {path: found for path, found in labels.items() if found}
    if not labels:
        return {}
    placed: dict[str, str] = {}
    for summary in ranks:
        hosts = _hosts_of(summary, labels)
        if len(hosts) == 1:
            placed[str(summary.rank)] = hosts.pop()
    return placed


def _labels(scan: FileScan) -> dict[str, list[int]]:
    """Host -> the ranks its lines name, from the file's labels, else from its folder (a
    folder's host holds every rank of the file: an empty list, like a one-host label's)."""
    found = scan.facts.get(FACT)
    if found:
        return found
    host = host_folder(scan.info.path)
    return {host: []} if host else {}


def _hosts_of(summary: RankSummary, labels: dict[str, dict[str, list[int]]]) -> set[str]:
    hosts: set[str] = set()
    for path in summary.files:
        found = labels.get(path)
        if found and len(found) == 1:
            hosts.update(found)
        elif found:
            hosts.update(host for host, named in found.items() if summary.rank in named)
    return hosts
