"""Record every checkpoint line of one file into a `CheckpointTrack`, cheaply.

A bisection run prints a checkpoint per sub-module per layer per step, so a rank log can
hold millions of them. A full parse (header regexes, the matcher) costs ~20 us a line, more
than the rest of the scan, so it is done only to learn the file's line layout:

- a *geometry* is where the message starts and where the timestamp sits in the raw bytes
  (`[default3]:2026-11-29 07:24:22,190 [rank3] INFO ` has its message at byte 44 and its
  time at bytes 11-34); lines from one print call share it;
- a *template* is the prefix bytes outside the timestamp (the rank tag, pid, level), with
  what the full parse read from them (rank, worker tag);
- a *remainder* is the message after the prefix, stripped: its normalised checkpoint text
  (or "no checkpoint") is decided once.

A line whose prefix matches a known template is then read with a few slices and dict
lookups. The first uses of every template are checked against a full parse; one
disagreement sends the rest of the file down the full parse, so the shortcut can only
save time, never change a result.
"""

from __future__ import annotations

import heapq
import re
import struct
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from analyzers.checkpoints.track import NAN, NO_RANK, CheckpointTrack
from analyzers.formats.base import ParsedLine
from analyzers.formats.blockfilter import Settled
from analyzers.formats.glued import split_glued
from analyzers.formats.stamp_reader import StampReader, time_value
from analyzers.formats.timestamps import time_span
from analyzers.ingest.line_index import count_line_ends

CHECKS = 4  # uses of a template verified by a full parse before it is trusted
MAX_GEOMETRIES = 8
GATE = 5  # literals sharing their last bytes are looked for after that ending is found
MAX_TEMPLATES = 512  # per geometry: a launcher log interleaves its ranks' prefixes
MAX_REMAINDERS = 65536  # distinct messages remembered (a step counter in the text varies)
# Checkpoints placed per file (~20 bytes each): memory stays bounded on any input. Lines past
# it are counted (`CheckpointTrack.unplaced`) and the report says the file was cut.
MAX_PLACED = 4_000_000
# Timed lines remembered with their minute (a new minute or message teaches one more).
MAX_SEEN = 65536
_NOT_A_CHECKPOINT = -1

Parse = Callable[[bytes], ParsedLine]  # full parse of one raw line
Match = Callable[[str], "str | None"]  # message -> normalised checkpoint text
# (gate, the literals that end in it): gate None for a literal alone under its ending
SuffixGates = tuple[tuple[bytes | None, tuple[bytes, ...]], ...]
_Seen = tuple[int, int, float]  # text id (or -1), rank (or -1), the minute's epoch seconds
_NONE_SEEN: dict[bytes, _Seen] = {}  # a minute with no line remembered yet (never written)
# by literals: those the last block a process read lacked (the files of one job look alike)
_LACKING: dict[tuple[bytes, ...], tuple[bytes, ...]] = {}
_REDRAW = re.compile(rb"\r(?=[^\r\n])")  # a carriage return with more of its line after it


@dataclass(slots=True)
class _Template:
    rank: int | None
    worker: str | None
    checks_left: int = CHECKS


@dataclass(slots=True)
class _Geometry:
    width: int  # message start in the raw line
    time_at: tuple[int, int] | None  # timestamp bytes, or None for untimed lines
    reader: StampReader | None
    templates: dict[bytes, _Template] = field(default_factory=dict)
    # whole lines without their timestamp -> (text id or -1, rank or -1), for the hot loop
    lines: dict[bytes, tuple[int, int]] = field(default_factory=dict)

    def key(self, raw: bytes) -> bytes:
        if self.time_at is None:
            return raw[: self.width]
        start, end = self.time_at
        return raw[:start] + raw[end : self.width]


class CheckpointLines:
    """Finds a file's checkpoint lines block by block and records each one."""

    def __init__(
        self,
        literals: tuple[bytes, ...],
        regex: re.Pattern[bytes] | None,
        parse: Parse,
        match: Match,
        confirm: dict[bytes, Any] | None = None,  # literal -> RE2 pattern
    ) -> None:
        self._literals = literals
        # literal -> the pattern a block must match for the literal's lines to be candidates
        self._confirm = confirm or {}
        # literal -> words one of which every match of its pattern holds (`needs`)
        self._needs = {word: _needs(pattern) for word, pattern in self._confirm.items()}
        # those words of the literals the last block held but did not confirm, less the words
        # it was seen to hold: the next block's caller may settle them in its pass too
        self._quiet_needs: tuple[bytes, ...] = ()
        ascii_literals = tuple(word for word in literals if word.isascii())
        self._gates = _suffix_gates(ascii_literals)
        # the ASCII literals the last block lacked: the next block's caller may look for
        # them in a pass it makes anyway (`lacking`); a file starts from the last file's
        self._lacking = _LACKING.get(literals, ())
        self._literals_key = literals
        # literals of another script (a Chinese print's `通过`): looked for only in a block
        # that holds a byte outside ASCII, which `bytes.isascii` tells ~30 times faster than
        # one search for an absent literal reads the block
        self._wide_gates = _suffix_gates(tuple(word for word in literals if not word.isascii()))
        self._regex = regex
        self._parse = parse
        self._match = match
        self.track = CheckpointTrack()
        self._geometries: list[_Geometry] = []
        self._remainders: dict[bytes, int] = {}
        self._shortcut = True
        # timed lines without their seconds, by the literal they hold: literal -> the line up
        # to its minute -> the rest -> seen
        self._seen: dict[bytes, dict[bytes, dict[bytes, _Seen]]] = {}
        self._seen_count = 0
        # (line number, offset) of the last line start the last `scan` counted up to: the
        # scanner counts the block's lines from there instead of from its start.
        self.counted = (1, 0)

    @property
    def enabled(self) -> bool:
        return bool(self._literals) or self._regex is not None

    def lacking(self) -> tuple[bytes, ...]:
        """The ASCII literals the file's last block lacked (all of them before its first):
        most blocks lack them too, and each costs a search of the whole block, so a caller
        that reads the block anyway may settle them for `scan`."""
        if self._regex is not None:
            return ()
        return tuple(dict.fromkeys(self._lacking + self._quiet_needs))

    def scan(
        self, block: bytes, low: bytes, first_line: int, settled: Settled | None = None
    ) -> None:
        """Record the checkpoint lines of one block of whole lines. `settled`: literals of
        `lacking()` and those of them the block holds, when the caller looked."""
        self.counted = (first_line, 0)
        if len(self.track) >= MAX_PLACED:
            self.track.unplaced += sum(self._count(low, word) for word in self._present(low))
            return
        self.track.make_room_for_line(first_line + len(block))  # a block has fewer lines
        words = self._present(low, settled) if self._regex is None else []
        # the hot loop finds by literal; a block with a redrawn line (a progress bar's carriage
        # return inside a line) is read line by line, where such a line gets the full parse
        hot = len(words) == 1 and words[0] not in self._confirm and not _redrawn(block)
        line_no, pos = first_line, 0
        for start in self._starts(block, low, words):
            if start < pos:
                continue
            if hot and self._shortcut and self._trusted():
                line_no += count_line_ends(block, pos, start)
                self._scan_hot(block, low, words[0], line_no, start)
                return
            line_no += count_line_ends(block, pos, start)
            pos = start
            end = block.find(b"\n", start)
            self._line(line_no, block[start:end])
        self.counted = (line_no, pos)

    def _trusted(self) -> bool:
        """Whether the hot loop may run: a learned layout whose first template is checked."""
        return bool(self._geometries) and any(
            not template.checks_left for template in self._geometries[0].templates.values()
        )

    def _scan_hot(self, block: bytes, low: bytes, word: bytes, line_no: int, pos: int) -> None:
        """`scan` for the common case: one literal, lines of a learned layout."""
        geometry = self._geometries[0]
        reader = geometry.reader
        if self.track.workers or (reader is not None and not reader.plain):
            self._scan_general(block, low, line_no, pos)
        elif reader is None:
            self._scan_untimed(block, low, word, line_no, pos, geometry)
        else:
            scan = self._scan_run if _dense(block, low, word, pos) else self._scan_timed
            scan(block, low, word, line_no, pos, geometry)

    def _scan_timed(
        self, block: bytes, low: bytes, word: bytes, line_no: int, pos: int, geometry: _Geometry
    ) -> None:
        """The hot loop for timed lines, inlined: it runs for every checkpoint of a job.

        A line with its seconds cut out repeats exactly for a minute (`[default0]:2026-11-29
        07:24 [rank0] INFO  norm passed`). Its head, up to the minute, is compared in place
        with the last line's (no copy, no hash); the rest after the seconds is looked up in
        that head's dict, which gives its text, rank and the minute's value. Only the
        seconds are read, by `float` itself: a cache of every reading of a millisecond
        clock was looked up at memory's pace (each line's reading is a new one, far from the
        last in the cache), twice the time the reading takes. A line not seen yet in this
        minute takes `_stamped`, which teaches it.

        The next line is looked up before the literal is searched for: a line remembered
        under this literal holds it (`_keep_seen`), so a run of checkpoints costs one search
        a line, for its end. Ranks and times wait in lists and enter their columns packed
        (`_Pending`): an array's `append` of a signed int or a float parses its argument."""
        start_t, end_t = geometry.time_at  # type: ignore[misc]
        cut = start_t + geometry.reader.minute_end  # type: ignore[union-attr]
        comma = geometry.reader.comma  # type: ignore[union-attr]
        track = self.track
        seen = self._seen.setdefault(word, {})
        pending = _Pending(track)
        add_text, add_line = track.text.append, track.line.append
        add_time, add_rank = pending.times.append, pending.ranks.append
        find, rfind, starts, line_ends = low.find, low.rfind, block.startswith, count_line_ends
        end, line_no = pos - 1, line_no - 1  # as if a line ended at pos
        head, rests = b"\n", _NONE_SEEN  # no line starts with a line end: the first misses
        while True:
            start, end, line_no = end + 1, find(b"\n", end + 1), line_no + 1
            if end < 0:
                break
            if not starts(head, start):  # the lines of one minute share their head's dict
                head = block[start : start + cut]
                rests = seen.get(head, _NONE_SEEN)
            found = rests.get(block[start + end_t : end])
            if found is None:
                at = find(word, start)
                if at < 0:
                    break
                if at > end:  # no literal in this line: go to the next line holding it
                    line_no += line_ends(low, start, at)
                    start, end = rfind(b"\n", 0, at) + 1, find(b"\n", at)
                    if not starts(head, start):
                        head = block[start : start + cut]
                        rests = seen.get(head, _NONE_SEEN)
                    found = rests.get(block[start + end_t : end])
                if found is None:
                    pending.flush()
                    found = self._stamped(geometry, block[start:end], line_no)
                    if found is None:
                        if track.workers:  # entries now carry a worker column: no shortcut
                            self._scan_general(block, low, line_no + 1, end + 1)
                            return
                        continue
                    if _holds(word, low[start : start + cut], low[start + end_t : end]):
                        rests = self._keep_seen(seen, head, block[start + end_t : end], found)
            text_id, rank, minute = found
            if text_id < 0:
                continue
            raw_seconds = block[start + cut : start + end_t]
            try:  # `SS,mmm` as a float: ~half the time of a look-up among 60,000 readings
                seconds = float(raw_seconds.replace(b",", b".") if comma else raw_seconds)
            except ValueError:
                pending.flush()
                self._line(line_no, block[start:end])
                continue
            add_text(text_id)
            add_line(line_no)
            add_time(minute + seconds)
            add_rank(rank)
        pending.flush()
        self.counted = (line_no, start)  # the line after the last one (blocks end in \n)

    def _scan_run(
        self, block: bytes, low: bytes, word: bytes, line_no: int, pos: int, geometry: _Geometry
    ) -> None:
        """`_scan_timed` for a block of checkpoint lines (`_dense`): the lines are split once
        in C instead of each searched for its end, and a line the memo does not know is
        searched for the literal within its own bounds. Same memo, same readings, same
        order, so the track is the one `_scan_timed` makes."""
        start_t, end_t = geometry.time_at  # type: ignore[misc]
        cut = start_t + geometry.reader.minute_end  # type: ignore[union-attr]
        comma = geometry.reader.comma  # type: ignore[union-attr]
        track = self.track
        seen = self._seen.setdefault(word, {})
        pending = _Pending(track)
        add_text, add_line = track.text.append, track.line.append
        add_time, add_rank = pending.times.append, pending.ranks.append
        find, starts = low.find, block.startswith
        head, rests = b"\n", _NONE_SEEN  # no line starts with a line end: the first misses
        lines = block[pos:].split(b"\n")
        lines.pop()  # what follows the block's last line end
        end, line_no = pos - 1, line_no - 1
        for raw in lines:
            start, end, line_no = end + 1, end + 1 + len(raw), line_no + 1
            if not starts(head, start):  # the lines of one minute share their head's dict
                head = block[start : start + cut]
                rests = seen.get(head, _NONE_SEEN)
            found = rests.get(raw[end_t:])
            if found is None:
                if find(word, start, end) < 0:  # no literal: not a checkpoint candidate
                    continue
                pending.flush()
                found = self._stamped(geometry, raw, line_no)
                if found is None:
                    if track.workers:  # entries now carry a worker column: no shortcut
                        self._scan_general(block, low, line_no + 1, end + 1)
                        return
                    continue
                if _holds(word, low[start : start + cut], low[start + end_t : end]):
                    rests = self._keep_seen(seen, head, raw[end_t:], found)
            text_id, rank, minute = found
            if text_id < 0:
                continue
            raw_seconds = raw[cut:end_t]
            try:
                seconds = float(raw_seconds.replace(b",", b".") if comma else raw_seconds)
            except ValueError:
                pending.flush()
                self._line(line_no, raw)
                continue
            add_text(text_id)
            add_line(line_no)
            add_time(minute + seconds)
            add_rank(rank)
        pending.flush()
        self.counted = (line_no + 1, end + 1)  # the line after the last one

    def _keep_seen(
        self, seen: dict[bytes, dict[bytes, _Seen]], head: bytes, rest: bytes, found: _Seen
    ) -> dict[bytes, _Seen]:
        """Remember a timed line's (text, rank, minute value) under its head (the line up to
        its minute) and the rest after its seconds, while there is room; returns the head's
        dict for the next lines. `seen` is one literal's: the caller keeps only lines whose
        head or rest holds that literal, so a line found there needs no search for it."""
        if self._seen_count >= MAX_SEEN:
            return seen.get(head, _NONE_SEEN)
        self._seen_count += 1
        rests = seen.setdefault(head, {})
        rests[rest] = found
        return rests

    def _stamped(self, geometry: _Geometry, raw: bytes, line_no: int) -> _Seen | None:
        """A line the timed loop has not seen in this minute: read it in full, or learn
        its (text, rank, minute value) for the next ones. None: the line was handled."""
        start_t, end_t = geometry.time_at  # type: ignore[misc]
        reader = geometry.reader
        found = geometry.lines.get(raw[:start_t] + raw[end_t:])
        minute = reader.minutes.get(raw[start_t : start_t + reader.minute_end])  # type: ignore[union-attr]
        if found is None or (found[0] >= 0 and (minute is None or minute[1])):
            self._line(line_no, raw)
            self._teach(geometry, raw)
            return None
        return found[0], found[1], minute[0] if minute is not None else NAN

    def _scan_untimed(
        self, block: bytes, low: bytes, word: bytes, line_no: int, pos: int, geometry: _Geometry
    ) -> None:
        """The hot loop for lines without a time: a whole line repeats exactly. It walks
        the lines as `_scan_timed` does."""
        known, track = geometry.lines, self.track
        add_text, add_line, add_time, add_rank = _appenders(track)
        find, rfind = low.find, low.rfind
        at, end, line_no = find(word, pos), pos - 1, line_no - 1  # as if a line ended at pos
        while at >= 0:
            start, end, line_no = end + 1, find(b"\n", end + 1), line_no + 1
            if at > end:
                line_no += count_line_ends(low, start, at)
                start, end = rfind(b"\n", 0, at) + 1, find(b"\n", at)
            at = find(word, end)
            found = known.get(block[start:end])
            if found is None:
                self._line(line_no, block[start:end])
                self._teach(geometry, block[start:end])
                if track.workers:
                    self._scan_general(block, low, line_no + 1, end + 1)
                    return
                continue
            text_id, rank = found
            if text_id >= 0:
                add_text(text_id)
                add_line(line_no)
                add_time(NAN)
                add_rank(rank)
        self.counted = (line_no + 1, end + 1)  # the line after the last one (blocks end in \n)

    def _scan_general(self, block: bytes, low: bytes, line_no: int, pos: int) -> None:
        for start in self._starts(block, low):
            if start < pos:
                continue
            line_no += count_line_ends(block, pos, start)
            pos = start
            self._line(line_no, block[start : block.find(b"\n", start)])
        self.counted = (line_no, pos)

    def _teach(self, geometry: _Geometry, raw: bytes) -> None:
        """Remember a whole line (its timestamp cut out) once its template is trusted and
        its message decided, for `_scan_hot`'s single lookup."""
        if not self._shortcut or len(geometry.lines) >= MAX_REMAINDERS:
            return
        template = geometry.templates.get(geometry.key(raw))
        if template is None or template.checks_left or template.worker is not None:
            return
        text_id = self._remainders.get(raw[geometry.width :].strip())
        if text_id is not None:
            rank = NO_RANK if template.rank is None else template.rank
            start, end = geometry.time_at or (0, 0)
            key = raw[:start] + raw[end:] if geometry.time_at else raw
            geometry.lines[key] = (text_id, rank)

    def finish(self, year: int | None) -> CheckpointTrack:
        self.track.settle_years(year)
        return self.track

    # --- finding candidate lines -----------------------------------------------------------

    def _present(self, low: bytes, settled: Settled | None = None) -> list[bytes]:
        """The literals a folded block holds. A search for an absent literal reads the whole
        block, so literals that end alike (`waiting for rank`, `from rank`) are looked for
        only when their shared ending is there, and those `settled` are not looked for."""
        looked, found = settled or ((), set())
        found = set(found)
        _find_gated(low, self._gates, found, looked)
        if self._wide_gates and not low.isascii():
            _find_gated(low, self._wide_gates, found)
        self._lacking = tuple(word for gate in self._gates for word in gate[1] if word not in found)
        _LACKING[self._literals_key] = self._lacking
        present, unconfirmed = [], []
        for word in self._literals:
            if word in found:
                confirmed = word not in self._confirm or self._confirmed(word, low, looked, found)
                (present if confirmed else unconfirmed).append(word)
        needs = (need for word in unconfirmed for need in self._needs[word] if need not in found)
        self._quiet_needs = tuple(dict.fromkeys(needs))
        return present

    def _confirmed(
        self, word: bytes, low: bytes, looked: tuple[bytes, ...], found: set[bytes]
    ) -> bool:
        """Whether the block matches the confirmed literal's pattern: not when the block was
        settled to lack every word each match holds, else by the pattern's own pass."""
        needs = self._needs[word]
        if needs and all(need in looked and need not in found for need in needs):
            return False
        return self._confirm[word].search(low) is not None

    def _count(self, low: bytes, word: bytes) -> int:
        pattern = self._confirm.get(word)
        return low.count(word) if pattern is None else len(_regex_starts(low, pattern))

    def _word_starts(self, low: bytes, word: bytes) -> Iterator[int]:
        """Starts of the lines a literal leads to: a confirmed literal's are its pattern's."""
        pattern = self._confirm.get(word)
        if pattern is None:
            return _word_starts(low, word)
        return iter(sorted(_regex_starts(low, pattern)))

    def _starts(self, block: bytes, low: bytes, words: list[bytes] | None = None) -> Iterator[int]:
        """Candidate line starts; `words`: the literals already known to be in the block."""
        if self._regex is not None:
            return iter(sorted(_regex_starts(block, self._regex)))
        if words is None:
            words = self._present(low)
        if len(words) == 1:
            return self._word_starts(low, words[0])
        return _unique(heapq.merge(*(self._word_starts(low, word) for word in words)))

    # --- one line --------------------------------------------------------------------------

    def _line(self, line_no: int, raw: bytes) -> None:
        pieces = split_glued(raw)
        if len(pieces) > 1:  # ranks' lines glued together: each read whole, never learned
            for piece in pieces:
                self._full(line_no, piece, learn=False)
            return
        if _redrawn(raw):  # read whole, never learned
            self._full(line_no, raw, learn=False)
            return
        if self._shortcut:
            for geometry in self._geometries:
                template = geometry.templates.get(geometry.key(raw))
                if template is not None:
                    if template.checks_left:
                        self._checked(line_no, raw, geometry, template)
                    else:
                        self._quick(line_no, raw, geometry, template)
                    return
        self._full(line_no, raw, learn=self._shortcut)

    def _quick(self, line_no: int, raw: bytes, geometry: _Geometry, template: _Template) -> None:
        remainder = raw[geometry.width :].strip()
        text_id = self._remainders.get(remainder)
        if text_id is None:
            text_id = self._remember(remainder)
        if text_id == _NOT_A_CHECKPOINT:
            return
        time, pending = NAN, False
        if geometry.reader is not None:
            start, end = geometry.time_at  # type: ignore[misc]
            value = geometry.reader.read(raw[start:end])
            if value is not None:
                time, pending = value
        self._record(text_id, line_no, time, pending, template.rank, template.worker)

    def _remember(self, remainder: bytes) -> int:
        text = self._match(remainder.decode("utf-8", "replace"))
        text_id = _NOT_A_CHECKPOINT if text is None else self.track.text_id(text)
        if len(self._remainders) < MAX_REMAINDERS:
            self._remainders[remainder] = text_id
        return text_id

    def _checked(self, line_no: int, raw: bytes, geometry: _Geometry, template: _Template) -> None:
        """Read the line both ways; a disagreement turns the shortcut off for the file."""
        before = len(self.track)
        self._quick(line_no, raw, geometry, template)
        quick = self.track.entry(before) if len(self.track) > before else None
        self.track.truncate(before)
        full = self._full(line_no, raw, learn=False)
        template.checks_left -= 1
        if quick != full:
            self._shortcut = False

    def _full(self, line_no: int, raw: bytes, *, learn: bool) -> tuple | None:
        line = self._parse(raw)
        text = self._match(line.message)
        if learn:
            self._learn(raw, line, text)
        if text is None:
            return None
        value = time_value(line.time)
        time, pending = value if value is not None else (NAN, False)
        rank = line.rank if line.rank is not None else line.local_rank
        worker = line.tags.get("worker")
        self._record(self.track.text_id(text), line_no, time, pending, rank, worker)
        return self.track.entry(len(self.track) - 1)

    def _record(
        self,
        text_id: int,
        line_no: int,
        time: float,
        pending: bool,
        rank: int | None,
        worker: str | None,
    ) -> None:
        if pending:
            self.track.year_pending.append(len(self.track))
        self.track.add(text_id, line_no, time, rank, worker)

    # --- learning the layout ---------------------------------------------------------------

    def _learn(self, raw: bytes, line: ParsedLine, text: str | None) -> None:
        width = _message_start(raw, line.message)
        if width is None:
            return
        time_at = _time_bytes(raw, line, width)
        if time_at is False:
            return
        geometry = self._geometry(width, time_at or None, raw)
        key = geometry.key(raw)
        rank = line.rank if line.rank is not None else line.local_rank
        if rank is not None and not _names_rank(key, rank):
            return  # the rank was read from the message: lines of this prefix are any rank's
        if key not in geometry.templates and len(geometry.templates) < MAX_TEMPLATES:
            geometry.templates[key] = _Template(rank, line.tags.get("worker"))
        remainder = raw[width:].strip()
        if remainder not in self._remainders and len(self._remainders) < MAX_REMAINDERS:
            self._remainders[remainder] = (
                _NOT_A_CHECKPOINT if text is None else self.track.text_id(text)
            )

    def _geometry(self, width: int, time_at: tuple[int, int] | None, raw: bytes) -> _Geometry:
        for geometry in self._geometries:
            if geometry.width == width and geometry.time_at == time_at:
                return geometry
        reader = None
        if time_at is not None:
            reader = StampReader(raw[time_at[0] : time_at[1]])
            reader = reader if reader.usable else None
        geometry = _Geometry(width, time_at if reader is not None else None, reader)
        if reader is None and time_at is not None:
            geometry.templates = {}  # a time it cannot read: never take the shortcut
            return geometry
        if len(self._geometries) < MAX_GEOMETRIES:
            self._geometries.append(geometry)
        return geometry


def _names_rank(prefix: bytes, rank: int) -> bool:
    """Whether a template's prefix bytes hold the rank the full parse read (`[rank3]`,
    `rank=3`, `[default3]:`). A shared console whose rank tag follows a prefix the parser does
    not peel (`[   1523.1ms] rank 1 | ...`, an elapsed-time stamp) has its rank in the message:
    every rank's line has the same prefix there, so the prefix cannot say whose line it is."""
    digits = b"%d" % rank  # looked for without a regex: one per rank would be compiled anew
    at = prefix.find(digits)
    while at >= 0:
        end = at + len(digits)
        if not prefix[at - 1 : at].isdigit() and not prefix[end : end + 1].isdigit():
            return True
        at = prefix.find(digits, at + 1)
    return False


def _redrawn(raw: bytes) -> bool:
    """Whether a carriage return inside the line redrew it (a progress bar's frame, with the
    next record glued after it): its bytes before the record are the frame's, not a prefix
    of the file's layout, so only the full parse (which drops the frame) reads it."""
    return b"\r" in raw and _REDRAW.search(raw) is not None  # memchr first: most logs have none


def _message_start(raw: bytes, message: str) -> int | None:
    """Where the parsed message starts in the raw line (its indentation left in)."""
    body = raw.rstrip()
    tail = message.strip().encode("utf-8", "replace")
    if not tail or not body.endswith(tail):
        return None
    width = len(body) - len(tail)
    while width > 0 and body[width - 1 : width] in (b" ", b"\t"):
        width -= 1
    return width


def _time_bytes(raw: bytes, line: ParsedLine, width: int) -> tuple[int, int] | bool | None:
    """The timestamp's bytes in the prefix; None when untimed; False when it can't be found
    (the time came from elsewhere, or escapes moved it)."""
    prefix = raw[:width].decode("utf-8", "replace")
    span = time_span(prefix)
    if line.time is None:
        return None if span is None else False
    if span is None:
        return False
    stamp = prefix[span[0] : span[1]].encode("utf-8", "replace")
    start = raw.find(stamp, 0, width)
    return (start, start + len(stamp)) if start >= 0 else False


DENSE_PROBE = 8 * 1024  # bytes of a block's rest read to tell a run of checkpoints (~120 lines)


def _dense(block: bytes, low: bytes, word: bytes, pos: int) -> bool:
    """Whether the block's next lines are nearly all candidates (a bisection run's log):
    then splitting them beats searching for each one, while a training log's few
    checkpoints among its metrics are better found by the literal."""
    stop = pos + DENSE_PROBE
    return low.count(word, pos, stop) * 8 >= count_line_ends(block, pos, stop) * 7


def _needs(pattern: Any) -> tuple[bytes, ...]:
    """The words one of which every match of a confirming pattern holds; none known for a
    pattern given bare (then the block is always searched)."""
    return tuple(getattr(pattern, "needs", ()))


def _holds(word: bytes, head: bytes, rest: bytes) -> bool:
    """Whether a folded line's head or rest holds the literal: then every line with the same
    head and rest does, whatever its seconds (a literal may reach into them)."""
    return word in head or word in rest


class _Pending:
    """Ranks and times of the hot loop's lines, not yet in the track's columns.

    `array.append` reads a signed int or a float through the C argument parser, several
    times the cost of `list.append`; `struct` packs a whole list with plain conversions,
    and `frombytes` copies it in. Flushed before anything else adds to the track."""

    __slots__ = ("_track", "ranks", "times")

    def __init__(self, track: CheckpointTrack) -> None:
        self.ranks: list[int] = []
        self.times: list[float] = []
        self._track = track

    def flush(self) -> None:
        if self.ranks:
            _extend(self._track.rank, self.ranks)
            _extend(self._track.time, self.times)
            self.ranks.clear()
            self.times.clear()


def _extend(column: array, values: list) -> None:
    """Append `values` to a column: packed in one call where `struct` has its type."""
    try:
        column.frombytes(struct.pack(f"{len(values)}{column.typecode}", *values))
    except struct.error:  # a value the type cannot hold: the column's own error
        column.fromlist(values)


def _appenders(track: CheckpointTrack) -> tuple[Callable[..., None], ...]:
    """The columns' `append` methods, bound once for a hot loop."""
    return track.text.append, track.line.append, track.time.append, track.rank.append


@lru_cache(maxsize=8)
def _suffix_gates(literals: tuple[bytes, ...]) -> SuffixGates:
    """Literals grouped by their last `GATE` bytes; a group of one needs no gate. Every file
    of a job asks with the same literals, so the grouping is made once."""
    groups: dict[bytes, list[bytes]] = {}
    for word in literals:
        groups.setdefault(word[-GATE:] if len(word) > GATE else word, []).append(word)
    return tuple((gate if len(words) > 1 else None, tuple(words)) for gate, words in groups.items())


def _find_gated(
    low: bytes,
    gates: SuffixGates,
    found: set,
    looked: tuple[bytes, ...] = (),
) -> None:
    """Add the literals of `gates` that `low` holds to `found`; those in `looked` were
    looked for already."""
    for gate, words in gates:
        words = [word for word in words if word not in looked] if looked else words
        if words and (gate is None or gate in low):
            found.update(word for word in words if word in low)


def _unique(starts: Iterator[int]) -> Iterator[int]:
    """Drop repeats from an ordered stream (a line holding two literals comes twice)."""
    last = None
    for start in starts:
        if start != last:
            yield start
            last = start


def _word_starts(low: bytes, word: bytes) -> Iterator[int]:
    """Starts of the lines holding `word`, first to last."""
    find, rfind = low.find, low.rfind
    at = find(word)
    while at >= 0:
        yield rfind(b"\n", 0, at) + 1
        end = find(b"\n", at)
        at = find(word, end) if end >= 0 else -1


def _regex_starts(block: bytes, pattern: re.Pattern[bytes]) -> set[int]:
    found: set[int] = set()
    match = pattern.search(block)
    while match is not None:
        found.add(block.rfind(b"\n", 0, match.start()) + 1)
        end = block.find(b"\n", match.start())
        match = pattern.search(block, end) if end >= 0 else None
    return found
