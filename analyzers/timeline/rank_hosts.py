"""Which host each rank ran on, as the host labels in front of its lines say
(`scan.host_labels`); the report keeps it in `environment.rank_hosts` (rank -> host).

A rank is placed by the files that hold its lines: a file labelled by one host places every
rank in it there; a file labelled by several hosts places a rank only on the hosts whose
labelled lines name it. A rank placed on two hosts (two hosts' local rank 0 in one merged
console) is placed on neither: a wrong host would send someone to the wrong machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core.types import FileScan, RankSummary
from analyzers.scan.host_labels import FACT


def rank_hosts(scans: Sequence[FileScan], ranks: Sequence[RankSummary]) -> dict[str, str]:
    """Rank (as the report's JSON keys it) -> host, for the ranks one host is named for."""
    labels = {scan.info.path: scan.facts[FACT] for scan in scans if scan.facts.get(FACT)}
    if not labels:
        return {}
    placed: dict[str, str] = {}
    for summary in ranks:
        hosts = _hosts_of(summary, labels)
        if len(hosts) == 1:
            placed[str(summary.rank)] = hosts.pop()
    return placed


def _hosts_of(summary: RankSummary, labels: dict[str, dict[str, list[int]]]) -> set[str]:
    hosts: set[str] = set()
    for path in summary.files:
        found = labels.get(path)
        if found and len(found) == 1:
            hosts.update(found)
        elif found:
            hosts.update(host for host, named in found.items() if summary.rank in named)
    return hosts
