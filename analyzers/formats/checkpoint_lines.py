"""Checkpoint lines of one file, counted in bulk so a checkpoint-heavy log stays cheap.

A bisection run prints a checkpoint per sub-module per layer per step, so a big rank log can
hold millions of them; parsing each in Python (header regexes, the matcher) would cost more
than the whole rest of the scan, and keeping each as an Event would not fit in memory. So:

- every checkpoint line is counted per normalised text (facts["checkpoint_counts"]);
- the first `HEAD` and the last `TAIL` checkpoint lines of the file become CHECKPOINT events
  (line, time, rank) the usual way;
- the lines between them are not events; facts["checkpoints_skipped"] counts them per text,
  so the occurrence index of a tail event with text T is (head events with T) +
  skipped[T] + (earlier tail events with T).

Bulk counting: checkpoints come from the same print call, so their prefix (time, rank tag,
level) has the same width. The width is learned from the first checkpoint parsed in full;
then a block's candidate lines are cut at that width and counted with `Counter`. Each new
distinct remainder is checked once against a full parse of one line that has it; when the
check fails those lines are parsed one by one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

HEAD = 64
TAIL = 256
_UNSURE = "\x00unsure"  # a remainder whose lines must be parsed one by one

# (line number, raw line bytes, emit as event?) -> normalised text or None
SlowPath = Callable[[int, bytes, bool], "tuple[str | None, str]"]


class CheckpointLines:
    def __init__(
        self,
        literals: tuple[bytes, ...],
        regex: re.Pattern[bytes] | None,
        slow: SlowPath,
    ) -> None:
        self._literals = literals
        self._regex = regex
        self._slow = slow
        self.counts: Counter[str] = Counter()
        self._head: Counter[str] = Counter()
        self._head_last_line = 0
        self._width: int | None = None
        self._keys: dict[bytes, str | None] = {}
        self._last: tuple[bytes, bytes, int] | None = None

    @property
    def enabled(self) -> bool:
        return bool(self._literals) or self._regex is not None

    def scan(self, block: bytes, low: bytes, first_line: int) -> None:
        if not self._maybe_in(block, low):
            return
        lines = block.split(b"\n")
        indexes = self._candidates(lines, low)
        if not indexes:
            return
        self._last = (block, low, first_line)
        start = 0
        while start < len(indexes) and self._head.total() < HEAD:
            index = indexes[start]
            self._one(first_line + index, lines[index], head=True)
            start += 1
        if start < len(indexes):
            self._count(lines, indexes[start:], first_line)

    def _maybe_in(self, block: bytes, low: bytes) -> bool:
        if self._regex is not None:
            return self._regex.search(block) is not None
        return any(word in low for word in self._literals)

    def _candidates(self, lines: list[bytes], low: bytes) -> list[int]:
        if self._regex is not None:
            return [i for i, line in enumerate(lines) if self._regex.search(line)]
        low_lines = low.split(b"\n")
        first, *others = self._literals
        if not others:
            return [i for i, line in enumerate(low_lines) if first in line]
        if len(others) == 1:
            second = others[0]
            return [i for i, line in enumerate(low_lines) if first in line or second in line]
        words = self._literals
        return [i for i, line in enumerate(low_lines) if any(word in line for word in words)]

    def _one(self, lineno: int, raw: bytes, head: bool) -> str | None:
        text, message = self._slow(lineno, raw, head)
        if text is None:
            return None
        self.counts[text] += 1
        if head:
            self._head[text] += 1
            self._head_last_line = lineno
        if self._width is None:
            self._learn_width(raw, message)
        return text

    def _learn_width(self, raw: bytes, message: str) -> None:
        body, tail = raw.rstrip(), message.strip().encode("utf-8", "replace")
        if tail and body.endswith(tail):
            width = len(body) - len(tail)
            while width > 0 and body[width - 1 : width] in (b" ", b"\t"):
                width -= 1
            self._width = width

    def _count(self, lines: list[bytes], indexes: list[int], first_line: int) -> None:
        width = self._width
        if width is None:
            for index in indexes:
                self._one(first_line + index, lines[index], head=False)
            return
        keys = [lines[index][width:].strip() for index in indexes]
        for key, number in Counter(keys).items():
            if key not in self._keys:
                at = indexes[keys.index(key)]
                self._check(key, lines[at], first_line + at)
            text = self._keys[key]
            if text == _UNSURE:
                for index, other in zip(indexes, keys, strict=True):
                    if other == key:
                        self._one(first_line + index, lines[index], head=False)
            elif text is not None:
                self.counts[text] += number

    def _check(self, key: bytes, raw: bytes, lineno: int) -> None:
        """Remember a remainder's text, if one full parse confirms the cut was right."""
        text, message = self._slow(lineno, raw, False)
        same = message.strip() == key.decode("utf-8", "replace").strip()
        self._keys[key] = text if same else _UNSURE

    def finish(self) -> dict[str, Any]:
        """Emit the tail events and return the count facts."""
        tail: Counter[str] = Counter()
        for lineno, raw in self._tail():
            text, _ = self._slow(lineno, raw, True)
            if text is not None:
                tail[text] += 1
        facts: dict[str, Any] = {}
        if self.counts:
            facts["checkpoint_counts"] = dict(self.counts)
        skipped = self.counts - self._head - tail
        if skipped:
            facts["checkpoints_skipped"] = dict(skipped)
        return facts

    def _known_text(self, raw: bytes) -> str | None:
        """The text bulk counting gave this line, if any (a maybe: the tail parses it)."""
        if self._width is None:
            return _UNSURE
        text = self._keys.get(raw[self._width :].strip(), _UNSURE)
        return _UNSURE if text is None and raw[self._width :].strip() not in self._keys else text

    def _tail(self) -> list[tuple[int, bytes]]:
        """The last checkpoint lines after the head events, in file order."""
        if self._last is None:
            return []
        block, low, first_line = self._last
        lines = block.split(b"\n")
        picked: list[tuple[int, bytes]] = []
        for index in reversed(self._candidates(lines, low)):
            lineno = first_line + index
            if lineno <= self._head_last_line or len(picked) >= TAIL:
                break
            if self._known_text(lines[index]) is not None:
                picked.append((lineno, lines[index]))
        return picked[::-1]
