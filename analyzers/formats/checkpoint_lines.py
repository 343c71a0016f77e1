"""Checkpoint lines of one file, counted in bulk so a checkpoint-heavy log stays cheap.

A bisection run prints a checkpoint per sub-module per layer per step, so a big rank log can
hold millions of them; parsing each in Python (header regexes, the matcher) would cost more
than the whole rest of the scan, and keeping each as an Event would not fit in memory. So:

- every checkpoint line is counted per normalised text (facts["checkpoint_counts"]);
- the first `HEAD` and the last `TAIL` checkpoint lines of the file become CHECKPOINT events
  (line, time, rank) the usual way;
- the lines between them are not events; facts["checkpoints_skipped"] counts them per text
  and facts["checkpoint_tail_from"] is the first tail line, so the occurrence index of a
  tail event with text T is (head events with T) + skipped[T] + (earlier tail events with T)
  (`analyzers.correlate` numbers them so).

Bulk counting: checkpoints come from the same print call, so their prefix (time, rank tag,
level) has the same width. The width is learned from the first checkpoint parsed in full;
then a block's candidate lines are cut at that width and counted with `Counter`. Each new
distinct remainder is checked once against a full parse of one line that has it; when the
check fails those lines are parsed one by one.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from analyzers.formats.blockfilter import FOLD

# A file with up to HEAD + TAIL checkpoints keeps every one as an event (a bisection run of
# tens of layers and a few decode steps); beyond that the middle is counted, not kept. Each
# kept line costs a full parse (~50 us), so HEAD bounds the per-file cost of a huge log.
HEAD = 512
TAIL = 512
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
        self._last = (block, low, first_line)
        skip_to = 0
        if self._head.total() < HEAD or self._width is None:
            skip_to = self._head_lines(block, low, first_line)
        if self._regex is not None:
            self._count_regex(block, first_line, skip_to)
        else:
            self._count(block, low, first_line, skip_to)

    def _maybe_in(self, block: bytes, low: bytes) -> bool:
        if self._regex is not None:
            return self._regex.search(block) is not None
        return any(word in low for word in self._literals)

    def _starts(self, block: bytes, low: bytes) -> list[int]:
        """Start offsets of the candidate lines of a block, in order."""
        return list(self._iter_starts(block, low))

    def _iter_starts(self, block: bytes, low: bytes) -> Iterator[int]:
        """The same, found lazily: the head and the tail need a few hundred, not all."""
        if self._regex is not None:
            found: set[int] = set()
            _regex_starts(block, self._regex, found)
            yield from sorted(found)
            return
        yield from _unique(heapq.merge(*(_word_starts(low, word) for word in self._literals)))

    def _iter_starts_backwards(self, block: bytes, low: bytes) -> Iterator[int]:
        if self._regex is not None:
            yield from reversed(self._starts(block, low))
            return
        words = (_word_starts_backwards(low, word) for word in self._literals)
        yield from _unique(heapq.merge(*words, reverse=True))

    def _head_lines(self, block: bytes, low: bytes, first_line: int) -> int:
        """Parse candidates in full until the head is complete; returns where that stopped."""
        line_no, pos = first_line, 0
        for start in self._iter_starts(block, low):
            if self._head.total() >= HEAD and self._width is not None:
                return start
            line_no += block.count(b"\n", pos, start)
            end = block.find(b"\n", start)
            self._one(line_no, block[start:end], head=self._head.total() < HEAD)
            pos = start
        return len(block)

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

    def _count(self, block: bytes, low: bytes, first_line: int, skip_to: int) -> None:
        """Count the candidates from `skip_to` on by the text after the learned width."""
        width = self._width
        if width is None or skip_to >= len(block):
            return
        found: dict[bytes, int] = {}
        example: dict[bytes, int] = {}
        find, rfind = low.find, low.rfind
        for position, word in enumerate(self._literals):
            earlier = self._literals[:position]  # a line with two literals counts once
            at = find(word, skip_to)
            while at >= 0:
                start = rfind(b"\n", 0, at) + 1
                end = find(b"\n", at)
                at = find(word, end)
                if earlier and any(other in low[start:end] for other in earlier):
                    continue
                key = block[start + width : end].strip()
                number = found.get(key)
                if number is None:
                    found[key], example[key] = 1, start
                else:
                    found[key] = number + 1
        for key, number in found.items():
            self._add(key, number, block, example[key], first_line, width)

    def _add(
        self, key: bytes, number: int, block: bytes, start: int, first_line: int, width: int
    ) -> None:
        if key not in self._keys:
            end = block.find(b"\n", start)
            self._check(key, block[start:end], first_line + block.count(b"\n", 0, start))
        text = self._keys[key]
        if text == _UNSURE:
            self._recount(key, block, first_line, width)
        elif text is not None:
            self.counts[text] += number

    def _recount(self, key: bytes, block: bytes, first_line: int, width: int) -> None:
        """Parse one by one the lines whose cut remainder could not be trusted."""
        for start in self._starts(block, block.translate(FOLD)):
            end = block.find(b"\n", start)
            if block[start + width : end].strip() == key:
                self._one(first_line + block.count(b"\n", 0, start), block[start:end], head=False)

    def _count_regex(self, block: bytes, first_line: int, skip_to: int) -> None:
        """A user pattern without literals: parse every line it finds."""
        for start in self._starts(block, b""):
            if start >= skip_to:
                end = block.find(b"\n", start)
                self._one(first_line + block.count(b"\n", 0, start), block[start:end], head=False)

    def _check(self, key: bytes, raw: bytes, lineno: int) -> None:
        """Remember a remainder's text, if one full parse confirms the cut was right."""
        text, message = self._slow(lineno, raw, False)
        same = message.strip() == key.decode("utf-8", "replace").strip()
        self._keys[key] = text if same else _UNSURE

    def finish(self) -> dict[str, Any]:
        """Emit the tail events and return the count facts."""
        tail: Counter[str] = Counter()
        tail_from = None
        for lineno, raw in self._tail():
            text, _ = self._slow(lineno, raw, True)
            if text is not None:
                tail[text] += 1
                tail_from = tail_from or lineno
        facts: dict[str, Any] = {}
        if self.counts:
            facts["checkpoint_counts"] = dict(self.counts)
        skipped = self.counts - self._head - tail
        if skipped:
            facts["checkpoints_skipped"] = dict(skipped)
            facts["checkpoint_tail_from"] = tail_from
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
        picked: list[tuple[int, bytes]] = []
        later, lineno = None, 0
        for start in self._iter_starts_backwards(block, low):
            if later is None:
                lineno = first_line + block.count(b"\n", 0, start)
            else:
                lineno -= block.count(b"\n", start, later)
            later = start
            if lineno <= self._head_last_line or len(picked) >= TAIL:
                break
            raw = block[start : block.find(b"\n", start)]
            if self._known_text(raw) is not None:
                picked.append((lineno, raw))
        return picked[::-1]


def _unique(starts: Iterator[int]) -> Iterator[int]:
    """Drop repeats from an ordered stream (a line holding two literals comes twice)."""
    last = None
    for start in starts:
        if start != last:
            yield start
            last = start


def _word_starts(low: bytes, word: bytes) -> Iterator[int]:
    """Starts of the lines holding `word`, first to last."""
    at = low.find(word)
    while at >= 0:
        yield low.rfind(b"\n", 0, at) + 1
        end = low.find(b"\n", at)
        at = low.find(word, end) if end >= 0 else -1


def _word_starts_backwards(low: bytes, word: bytes) -> Iterator[int]:
    """Starts of the lines holding `word`, last to first."""
    at = low.rfind(word)
    while at >= 0:
        start = low.rfind(b"\n", 0, at) + 1
        yield start
        at = low.rfind(word, 0, start) if start > 0 else -1


def _regex_starts(block: bytes, pattern: re.Pattern[bytes], found: set[int]) -> None:
    match = pattern.search(block)
    while match is not None:
        found.add(block.rfind(b"\n", 0, match.start()) + 1)
        end = block.find(b"\n", match.start())
        match = pattern.search(block, end) if end >= 0 else None
