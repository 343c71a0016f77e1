"""Which global ranks a host's launcher agent runs, in a console that merges several hosts'.

pdsh (or clush) running torchrun on every host of a job writes one console of all of them,
each host's lines behind its label (a syslog server that every host logs to, behind the
journal's host) and each worker's behind its agent's local tag, numbered from 0 again on every
host:

    node-1:   group_rank=0
    node-2:   group_rank=1
    node-2:   local_ranks=[0, 1]
    node-1: [default0]:layer 0 passed
    node-2: [default0]:layer 0 passed          <- global rank 2, not 0

Read from the file's head, a host's agent gives its node rank and its local world size
(`knowledge/agent_nodes.yaml`), and a worker's line that states its global rank (`[default1]:
... rank=3`) gives the offset outright. The offsets, host -> the global rank of its local rank
0, are, in order of trust: what the workers state, where every statement of a host agrees;
node rank x local world size, where every host's agent said both and no two hosts claim one
node; else each host a block of its own, in the natural order of the host names, as large as
the largest size said or local rank seen, so two hosts' workers never fall onto one rank. A
console with one host's tags needs none of this (its local ranks are read as before). Only the
head is read (`formats.hints.HINT_BYTES`): agents print their rendezvous and their workers their
first lines at the start, and a host first heard from past the head keeps its local numbers.
The report says so (`scan.host_offsets`), and says when the head named more hosts with workers
than are kept (`cut`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from analyzers.core import regex_programs
from analyzers.core.limits import small_int
from analyzers.core.yamlcheck import parse_yaml_file
from analyzers.formats.literal_gate import after_line_end
from analyzers.formats.outer_prefix import AFTER, AGENT_ROLE_BYTES, JOURNAL, PDSH_BYTES

RULES_FILE = Path(__file__).parent.parent / "knowledge" / "agent_nodes.yaml"
FACTS = ("node_rank", "local_ranks", "local_world_size")
MAX_HOSTS = 1024  # hosts kept per file, as `scan.host_labels` keeps
CUT = "host_offsets_cut"  # FileScan.facts key: True when a host past MAX_HOSTS had workers
_LOOKED_AT = 32  # first lines of a block looked at for a host label
# a labelled line: the host (group 1), then the rest of the line (the last group), behind pdsh's
# label or the journal's host (a central syslog that several hosts log to); led by the line end
_LABELLED = (
    regex_programs.compile(rb"\n" + PDSH_BYTES + AFTER.encode() + rb"([^\n]*)"),
    regex_programs.compile(rb"\n" + JOURNAL.encode() + AFTER.encode() + rb"([^\n]*)"),
)
# a worker's copied line under its agent's local tag, and the global rank it may state
_COPY = regex_programs.compile(
    rb"\["
    + AGENT_ROLE_BYTES
    + rb"(\d{1,5})\]:(?:[^\n]*?(?:\[rank(\d{1,6})\]|(?<![\w.\[])rank=(\d{1,6})\b))?"
)


@lru_cache(maxsize=1)
def load_rules() -> dict[str, tuple[re.Pattern[bytes], ...]]:
    data = parse_yaml_file(RULES_FILE)
    return {fact: tuple(regex_programs.compile(p.encode()) for p in data[fact]) for fact in FACTS}


@dataclass(slots=True)
class _Host:
    said: dict[str, tuple[int, int]] = field(default_factory=dict)  # fact -> (rule, value)
    top_local: int = -1  # the highest local tag seen
    stated: set[int] = field(default_factory=set)  # global minus local rank, as workers state

    def size(self) -> int | None:
        found = self.said.get("local_ranks") or self.said.get("local_world_size")
        return found[1] if found else None


@dataclass(slots=True)
class AgentNodes:
    """The hosts of a file's head, what their agents said, and the offsets that follow."""

    hosts: dict[str, _Host] = field(default_factory=dict)
    cut: bool = False  # a host past MAX_HOSTS printed a worker's line: it gets no offset

    def read(self, block: bytes) -> None:
        """Read a head block's labelled lines. pdsh labels every line it relays, so a block
        whose first lines carry no label (a launcher's own banner may come first) is no such
        console: that look is all it costs."""
        first = after_line_end(_first_lines(block))
        for labelled in _LABELLED:
            if self.hosts or labelled.search(first):
                for found in labelled.finditer(after_line_end(block)):
                    self._read_labelled(found)

    def _read_labelled(self, found: re.Match[bytes]) -> None:
        name = found.group(1).decode()
        host = self.hosts.get(name)
        if host is None:
            if len(self.hosts) >= MAX_HOSTS:
                self.cut = self.cut or _COPY.match(found.group(found.re.groups)) is not None
                return
            host = self.hosts[name] = _Host()
        _read_line(host, found.group(found.re.groups))

    def offsets(self) -> dict[str, int]:
        """Host -> the global rank of its local rank 0, for two hosts' local tags or more."""
        tagged = {name: host for name, host in self.hosts.items() if host.top_local >= 0}
        if len(tagged) < 2:
            return {}
        return _stated(tagged) or _by_node(tagged) or _stacked(tagged)


def _first_lines(block: bytes) -> bytes:
    end = 0
    for _ in range(_LOOKED_AT):
        end = block.find(b"\n", end) + 1
        if end == 0:
            return block
    return block[:end]


def _read_line(host: _Host, rest: bytes) -> None:
    copy = _COPY.match(rest)
    if copy is not None:
        local = small_int(copy.group(1))
        host.top_local = max(host.top_local, local)
        said = copy.group(2) or copy.group(3)
        if said is not None:
            host.stated.add(small_int(said) - local)
        return
    for fact, patterns in load_rules().items():
        for rule, pattern in enumerate(patterns):
            found = pattern.search(rest)
            if found and rule < host.said.get(fact, (len(patterns), 0))[0]:
                host.said[fact] = (rule, _value(fact, found.group(1)))


def _value(fact: str, text: bytes) -> int:
    return len(text.split(b",")) if fact == "local_ranks" else small_int(text)


def _stated(hosts: dict[str, _Host]) -> dict[str, int]:
    if not all(len(host.stated) == 1 for host in hosts.values()):
        return {}
    offsets = {name: next(iter(host.stated)) for name, host in hosts.items()}
    return offsets if len(set(offsets.values())) == len(offsets) else {}


def _by_node(hosts: dict[str, _Host]) -> dict[str, int]:
    offsets = {}
    for name, host in hosts.items():
        node, size = host.said.get("node_rank"), host.size()
        if node is None or size is None or host.top_local >= size:
            return {}
        offsets[name] = node[1] * size
    return offsets if len(set(offsets.values())) == len(offsets) else {}


def _stacked(hosts: dict[str, _Host]) -> dict[str, int]:
    block = max(max(host.size() or 0, host.top_local + 1) for host in hosts.values())
    return {name: index * block for index, name in enumerate(sorted(hosts, key=_natural))}


def _natural(name: str) -> list[tuple[int, object]]:
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name)]
