"""Skip a regex pass over a block that cannot match: most head-of-file hint patterns
(`tensor_parallel_size=8`, `world_size: 16`) find nothing in most files, yet `findall`
still walks the whole MiB. A literal that every match must contain is found with
`bytes.find` ten times faster, so its absence settles the pass without the regex."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

try:  # the parser behind `re`; only used to read literals, with a safe fallback
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older/newer Pythons
    sre_parse = None

MIN_GATE = 3  # shorter needles are found no faster than the regex runs


def required_literal(pattern: re.Pattern[bytes]) -> bytes | None:
    """The longest run of literal bytes at the top level of the pattern (so every match
    holds it), or None: case-insensitive patterns and runs under MIN_GATE bytes get none."""
    if sre_parse is None or pattern.flags & re.IGNORECASE:
        return None
    try:
        items = list(sre_parse.parse(pattern.pattern, pattern.flags))
    except Exception:  # any parser trouble means "no gate"
        return None
    best, run = b"", bytearray()
    for op, value in items:
        if str(op) == "LITERAL":
            run.append(value)
            continue
        best, run = max(best, bytes(run), key=len), bytearray()
    best = max(best, bytes(run), key=len)
    return best if len(best) >= MIN_GATE else None


class _Presence:
    """Which gates the last block searched holds. Several patterns share a gate
    (`parallel`, `size`), and a gate that is absent costs a pass over the whole block: the
    block is searched for each literal once. Only the last block is remembered (it is kept
    alive, so its identity cannot be taken by another)."""

    __slots__ = ("block", "found")

    def __init__(self) -> None:
        self.block: bytes | None = None
        self.found: dict[bytes, bool] = {}

    def holds(self, data: bytes, gate: bytes) -> bool:
        if data is not self.block:
            self.block, self.found = data, {}
        found = self.found.get(gate)
        if found is None:
            found = self.found[gate] = gate in data
        return found


_PRESENCE = _Presence()


class GatedPattern:
    """A compiled bytes pattern whose scans first check for its required literal."""

    __slots__ = ("gate", "pattern")

    def __init__(self, pattern: re.Pattern[bytes]) -> None:
        self.pattern = pattern
        self.gate = required_literal(pattern)

    def _may_match(self, data: bytes) -> bool:
        return self.gate is None or _PRESENCE.holds(data, self.gate)

    def findall(self, data: bytes) -> list[Any]:
        return self.pattern.findall(data) if self._may_match(data) else []

    def finditer(self, data: bytes) -> Iterator[re.Match[bytes]]:
        return self.pattern.finditer(data) if self._may_match(data) else iter(())

    def search(self, data: bytes, *args: int) -> re.Match[bytes] | None:
        return self.pattern.search(data, *args) if self._may_match(data) else None


def gated(source: bytes, flags: int = 0) -> GatedPattern:
    return GatedPattern(re.compile(source, flags))


def after_line_end(data: bytes) -> bytes:
    """`data` behind one line end, for a pattern written `\\n...` where `(?m)^...` was meant:
    `re` jumps from one occurrence of a pattern's leading literal to the next, while a pattern
    that opens with `^` is tried at every byte (four times the time over a head of log lines,
    paid by every rank log of a big job). With the line end in front, the first line follows
    one too, so both forms find the same lines."""
    return b"\n" + data
