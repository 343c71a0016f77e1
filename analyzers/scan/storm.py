"""Count the lines of an error storm instead of parsing each one again.

A failing job can print the same error a million times (a watchdog in a loop, a retry that
never succeeds). Past the per-file event caps (`scan.MAX_EVENTS`) such lines are only
counted, but parsing and classifying each one still cost ~30 us: half a minute per million
lines. Once a cap is full, a line that differs from an earlier dropped line only in its
digits (times, sequence numbers, pids) is counted like that line without being parsed.

Only lines whose earlier twin did nothing but add one dropped event are remembered: a line
that started or continued a multi-line block, added a fact or kept an event is parsed every
time. Rank numbers (and the host label a local rank is numbered under) stay in the key, so a
rank seen only in the storm is still noticed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from analyzers.core.types import EventKind
from analyzers.formats.outer_prefix import AGENT_ROLE_BYTES, PDSH_BYTES

_FOLD_DIGITS = bytes.maketrans(b"123456789", b"000000000")
# the numbers that say whose line it is: a rank, torchrun's local tag of any role (`[default3]:`,
# `[trainer3]:`), and pdsh's host label (`node-2: `), under which local tags repeat per host
_WRITER_DIGITS = re.compile(
    rb"(?i:rank)\W{0,3}(\d+)|\[" + AGENT_ROLE_BYTES + rb"(\d+)\]:|^(" + PDSH_BYTES + rb")"
)
MAX_SHAPES = 10_000  # distinct storm lines remembered per file (bounded memory)


@dataclass(frozen=True, slots=True)
class Before:
    """What the scanner had before a line was parsed, to tell what the line changed."""

    kept: dict[EventKind, int]
    events: int
    facts: int


class StormCounter:
    def __init__(self, caps: Mapping[EventKind, int]) -> None:
        self._caps = caps
        self._shapes: dict[bytes, EventKind] = {}
        self._active = False

    def active(self, kept: Counter[EventKind]) -> bool:
        """Whether some cap is full. The tallies only grow while lines are read, so once
        true it stays true and is not asked of the tallies again (asked for every line)."""
        if not self._active:
            self._active = any(kept[kind] >= cap for kind, cap in self._caps.items())
        return self._active

    def known(self, raw: bytes) -> EventKind | None:
        """The kind an earlier twin of this line was dropped as, if any."""
        return self._shapes.get(_key(raw)) if self._shapes else None

    def before(self, kept: Counter[EventKind], events: int, facts: Mapping[str, Any]) -> Before:
        return Before(dict(kept), events, _fact_items(facts))

    def learn(
        self,
        raw: bytes,
        before: Before,
        kept: Counter[EventKind],
        events: int,
        facts: Mapping[str, Any],
    ) -> None:
        """Remember the line if all it did was add one event past its kind's cap."""
        if len(self._shapes) >= MAX_SHAPES or events != before.events:
            return
        kind = _one_added(before.kept, kept)
        if kind is not None and kind in self._caps and _fact_items(facts) == before.facts:
            self._shapes[_key(raw)] = kind


def _one_added(before: Mapping[EventKind, int], kept: Counter[EventKind]) -> EventKind | None:
    """The kind whose tally grew by exactly one while no other grew, else None. The tallies
    only grow while lines are read: comparing a plain copy is what subtracting two Counters
    told, at a fraction of its cost on every line of a storm."""
    grown = [kind for kind, count in kept.items() if count != before.get(kind, 0)]
    if len(grown) != 1 or kept[grown[0]] - before.get(grown[0], 0) != 1:
        return None
    return grown[0]


def _key(raw: bytes) -> bytes:
    return (
        raw.translate(_FOLD_DIGITS)
        + b"\x00"
        + b",".join(map(b"".join, _WRITER_DIGITS.findall(raw)))
    )


def _fact_items(facts: Mapping[str, Any]) -> int:
    """Size of the facts, not counting the dropped-event tally itself."""
    return sum(
        len(value) if isinstance(value, list | dict) else 1
        for topic, value in facts.items()
        if topic != "events_dropped"
    )
