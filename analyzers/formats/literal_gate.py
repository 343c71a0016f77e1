"""Skip a regex pass over a block that cannot match: most head-of-file hint patterns
(`tensor_parallel_size=8`, `world_size: 16`) find nothing in most files, yet `findall`
still walks the whole MiB. A literal that every match must contain is found with
`bytes.find` ten times faster, so its absence settles the pass without the regex."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import re2

from analyzers.core import regex_programs

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
    alive, so its identity cannot be taken by another), besides the one block `learn` was
    told about: a file's head is searched in its lower-cased copy and as it is, in turns."""

    __slots__ = ("block", "found", "learned", "learned_found")

    def __init__(self) -> None:
        self.block: bytes | None = None
        self.found: dict[bytes, bool] = {}
        self.learned: bytes | None = None
        self.learned_found: dict[bytes, bool] = {}

    def holds(self, data: bytes, gate: bytes) -> bool:
        if data is self.learned:
            known = self.learned_found
        else:
            if data is not self.block:
                self.block, self.found = data, {}
            known = self.found
        found = known.get(gate)
        if found is None:
            found = known[gate] = gate in data
        return found

    def learn(self, data: bytes, found: dict[bytes, bool]) -> None:
        self.learned, self.learned_found = data, found


_PRESENCE = _Presence()


def holds(data: bytes, literal: bytes) -> bool:
    """`literal in data`, answered once per block (and from `LiteralSet.learn_from`)."""
    return _PRESENCE.holds(data, literal)


class LiteralSet:
    """Many literals looked for in one block at once.

    A file's head is searched for a dozen and more words (`world_size`, `parallel`, `[rank`,
    `float`, ...), most absent from a rank log, and each absent one costs `bytes.find` a pass
    over the whole head; one RE2 set pass answers all of them in about the time of two (a
    job of a thousand ranks reads two thousand heads). Literals are matched byte for byte.
    """

    __slots__ = ("_set", "literals")

    def __init__(self, literals: Iterable[bytes]) -> None:
        self.literals = tuple(dict.fromkeys(literals))
        options = re2.Options()
        options.encoding = re2.Options.Encoding.LATIN1  # bytes as they are, never UTF-8
        self._set = re2.Set.SearchSet(options)
        for literal in self.literals:
            self._set.Add(re2.escape(literal))
        self._set.Compile()

    def found_in(self, data: bytes) -> dict[bytes, bool]:
        """Each literal, and whether `data` holds it."""
        present = set(self._set.Match(data) or ())
        return {literal: index in present for index, literal in enumerate(self.literals)}

    def learn_from(self, data: bytes) -> None:
        """Search `data` for every literal now, so the gates and `holds` asking about this
        block next take the answers instead of a pass each."""
        _PRESENCE.learn(data, self.found_in(data))


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
    return GatedPattern(regex_programs.compile(source, flags))


def after_line_end(data: bytes) -> bytes:
    """`data` behind one line end, for a pattern written `\\n...` where `(?m)^...` was meant:
    `re` jumps from one occurrence of a pattern's leading literal to the next, while a pattern
    that opens with `^` is tried at every byte (four times the time over a head of log lines,
    paid by every rank log of a big job). With the line end in front, the first line follows
    one too, so both forms find the same lines."""
    return b"\n" + data
