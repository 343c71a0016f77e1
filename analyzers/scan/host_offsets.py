"""The hosts of a merged console whose torchrun workers kept their local rank numbers.

    node-1: [default0]:layer 0 passed        <- placed by the head: global rank 0
    node-3: [default0]:layer 0 passed        <- node-3's workers first print past the head: 0

In a console that merges several hosts' agents, each host's local tags are made global by the
offset the file's head gives that host (`formats.agent_nodes`). A host the head placed no
worker of (its workers first printed after the head, or the head named more hosts than
`agent_nodes.MAX_HOSTS`) has no offset: its workers keep their local numbers and may be taken
for another host's ranks. The scanner notes such a host as it parses one of its workers' lines
(`scan.member`): a line the scan does not parse gives no rank to anything, so the hosts noted
are those whose lines the report may have misnumbered, and a file whose head gave no offsets
pays nothing. The pipeline states them, and a head that cut hosts, as the `host_offsets` limit.
"""

from __future__ import annotations

from typing import Any

from analyzers.core.phrases import MAX_LISTED, Said, say
from analyzers.core.types import FileScan
from analyzers.formats import agent_nodes
from analyzers.formats.hints import HINT_BYTES

FACT = "host_offsets_unplaced"  # ([hosts in the order met], whether more were met than kept)
MAX_HOSTS = 1024  # hosts kept per file, as the head keeps
_HEAD = f"{HINT_BYTES // 1024} KiB"


class UnplacedHosts:
    """The hosts, in the order met, whose workers' lines kept their local rank numbers."""

    def __init__(self) -> None:
        self._hosts: dict[str, None] = {}
        self._more = False

    def note(self, host: str) -> None:
        if host in self._hosts:
            return
        if len(self._hosts) >= MAX_HOSTS:
            self._more = True
            return
        self._hosts[host] = None

    def store(self, facts: dict[str, Any]) -> None:
        if self._hosts:
            facts[FACT] = (list(self._hosts), self._more)


def notes(scan: FileScan) -> list[Said]:
    """What the report says of one file: that its head cut hosts, and which hosts' workers
    kept their local numbers."""
    said = []
    path = scan.info.path
    if scan.facts.get(agent_nodes.CUT):
        kept = f"{agent_nodes.MAX_HOSTS:,}"
        said.append(say("bundle.host_offsets_cut", path=path, head=_HEAD, kept=kept))
    if FACT in scan.facts:
        hosts, more = scan.facts[FACT]
        shown = ", ".join(hosts[:MAX_LISTED]) + (", ..." if len(hosts) > MAX_LISTED else "")
        count = f"{len(hosts):,}" + ("+" if more else "")
        said.append(
            say(
                "bundle.host_offsets_unplaced",
                many=len(hosts) > 1,
                path=path,
                head=_HEAD,
                count=count,
                hosts=shown,
            )
        )
    return said
