"""The hosts that pdsh's (or clush's) labels name in one file, with the ranks their lines name.

    cn-0418: 2026-12-05 19:08:21,103 [rank3] INFO step 1 | layer 0 passed

A file whose labelled lines all name one host (a node's console, a rank's own log) was written
there, so every rank the file holds ran on that host. A file that merges several hosts' lines
(pdsh's console of a multi-node launch) places a rank only where a line names both: the host
in its label and a global rank in its own tag (`[rank3]`). A launcher's local tag
(`[default0]`) is numbered from 0 again on each host, so it places no rank in such a file.
`timeline.rank_hosts` reads the fact for the report.
"""

from __future__ import annotations

from typing import Any

from analyzers.formats.base import ParsedLine

FACT = "host_labels"  # host -> the global ranks its labelled lines name, sorted
DROPPED = "host_labels_dropped"  # True when a line named a host past MAX_HOSTS
MAX_HOSTS = 1024  # hosts kept per file: a cluster's console, not an unbounded list


class HostLabels:
    """Collects the labels of the lines the scanner parses (before a local rank stands in
    for a missing global one: only a rank the line itself names counts)."""

    def __init__(self) -> None:
        self._ranks: dict[str, set[int]] = {}
        self._dropped = False

    def note(self, line: ParsedLine) -> None:
        host = line.tags.get("host")
        if host is None:
            return
        ranks = self._ranks.get(host)
        if ranks is None:
            if len(self._ranks) >= MAX_HOSTS:
                self._dropped = True
                return
            ranks = self._ranks[host] = set()
        if line.rank is not None:
            ranks.add(line.rank)

    def store(self, facts: dict[str, Any]) -> None:
        if self._ranks:
            facts[FACT] = {host: sorted(ranks) for host, ranks in self._ranks.items()}
        if self._dropped:
            facts[DROPPED] = True
