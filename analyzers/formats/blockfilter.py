"""Find the candidate lines of a ~1 MiB block without looking at each line in Python.

The block is lower-cased once (`bytes.lower`, ~1.5 GB/s); each keyword is then found with
`bytes.find`, which runs at memchr speed, and after a hit the search resumes at the end of
that line. Python's `re` is only fast when a pattern starts with a literal (it then jumps
between occurrences of it), so the prefilter's patterns do, and the checkpoint matcher's
byte pattern is reduced to the literals its branches start with when it can be
(`formats.regex_literals`); a pattern without such literals falls back to a regex search over
the raw block. A block of one logger's lines is read by its level words once the file's head
taught the prefix they share (`formats.logger_shape`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from analyzers.core.saferegex import compile_line_filter, compile_literal_union
from analyzers.formats.line_led import LineLed, line_led
from analyzers.formats.regex_literals import literal_prefixes
from analyzers.formats.severity import Prefilter
from analyzers.ingest.line_index import LineIndex

# Lower-cases and turns every digit into "0" in one pass: keyword search needs the case folded,
# the line-shape counts below need times and numbers folded.
FOLD = bytes.maketrans(bytes(range(65, 91)) + b"123456789", bytes(range(97, 123)) + b"0" * 9)
# literals a pass over a block looked for, and those of them it found
Settled = tuple[tuple[bytes, ...], set[bytes] | frozenset[bytes]]


class _HasPrefilter(Protocol):
    def prefilter_bytes_pattern(self) -> bytes: ...

    def prefilter_confirmations(self) -> dict[bytes, Any]: ...  # literal -> RE2 pattern


@dataclass(frozen=True, slots=True)
class BlockFilter:
    keywords: tuple[bytes, ...]
    patterns: tuple[re.Pattern[bytes] | LineLed, ...]  # a line-start pattern line by line
    checkpoint_literals: tuple[bytes, ...] = ()
    checkpoint_regex: re.Pattern[bytes] | None = None
    notable: tuple[bytes, ...] = ()
    notable_cann: tuple[bytes, ...] = ()  # searched in CANN logs' raw blocks, as written
    # checkpoint literals that count only where their pattern matches the folded block
    checkpoint_confirm: tuple[tuple[bytes, Any], ...] = ()  # RE2 patterns
    # the keywords, and the notable phrases, as one RE2 union each (None: search word by word)
    keyword_union: Any = None
    notable_union: Any = None

    @classmethod
    def build(cls, prefilter: Prefilter, checkpoints: _HasPrefilter | None) -> BlockFilter:
        """The filter for these keywords and this checkpoint matcher: every file of a bundle
        asks for the same one, and folding a hundred keywords and the matcher's literals
        anew cost a job of a thousand ranks two thousand times (the filter is immutable).
        The same two objects as the last call's take its filter without a look-up: hashing
        the prefilter's hundreds of values for the cache's key took ~0.1 ms a file."""
        last = _LAST_BUILT.get(cls)
        if last is not None and last[0] is prefilter and last[1] is checkpoints:
            return last[2]
        built = _built(cls, prefilter, checkpoints)
        _LAST_BUILT[cls] = (prefilter, checkpoints, built)  # kept alive: ids stay theirs
        return built

    @classmethod
    def _build(cls, prefilter: Prefilter, checkpoints: _HasPrefilter | None) -> BlockFilter:
        literals: tuple[bytes, ...] = ()
        regex = None
        source = checkpoints.prefilter_bytes_pattern() if checkpoints is not None else b""
        if source:
            found = literal_prefixes(source)
            if found:
                literals = tuple(sorted({word.lower() for word in found}))
            else:
                regex = compile_line_filter(source)  # holds user regexes: linear time
        keywords = tuple(word.translate(FOLD) for word in prefilter.keywords)
        literals = tuple(word.translate(FOLD) for word in literals)
        notable = tuple(word.translate(FOLD) for word in prefilter.notable_info)
        confirm = ()
        if literals and checkpoints is not None:
            confirm = tuple(
                (word.translate(FOLD), pattern)
                for word, pattern in checkpoints.prefilter_confirmations().items()
                if word.translate(FOLD) in literals
            )
        return cls(
            keywords,
            tuple(line_led(pattern) for pattern in prefilter.patterns),
            literals,
            regex,
            notable,
            prefilter.notable_in_cann_logs,
            confirm,
            _literal_union(keywords),
            _literal_union(notable),
        )

    def candidates(self, low: bytes, notable: set[int] | None = None) -> set[int]:
        """Start offsets of the lines of a folded block (`FOLD`) that hold an error keyword;
        `notable`: the block's `notable_candidates`, when they were found already."""
        hits: set[int] = set()
        _find_any(low, self.keywords, self.keyword_union, hits)
        for pattern in self.patterns:
            _search_all(low, pattern, hits)
        return hits | (self.notable_candidates(low) if notable is None else notable)

    def candidates_in(self, low: bytes, ranges: Iterable[tuple[int, int]]) -> set[int]:
        """`candidates` of the given line-aligned ranges of a folded block only."""
        hits: set[int] = set()
        for start, end in ranges:
            hits.update(start + hit for hit in self.candidates(low[start:end]))
        return hits

    def notable_candidates(self, low: bytes) -> set[int]:
        """Lines with a phrase that matters even at INFO level (searched on every path)."""
        hits: set[int] = set()
        _find_any(low, self.notable, self.notable_union, hits)
        return hits

    def notable_and_lacking(
        self, low: bytes, lacking: tuple[bytes, ...]
    ) -> tuple[set[int], Settled]:
        """`notable_candidates`, and which of the literals `lacking` the block holds, in one
        pass: a literal a block lacks costs `bytes.find` a whole read of it (~1 GB/s), and
        next to nothing as one more word of the notable phrases' union. Returns the hits
        and the literals settled with those of them found.

        The pass ends at the first of the literals it meets (a block holds few of them: the
        ones the file's last block lacked); the notable union then goes on alone from that
        line, and the literals not met are left unsettled for the caller's own search.
        Behind a notable phrase its line is skipped, so the literals are looked for in the
        rest of that line (none starts before the phrase: the union's match is leftmost)."""
        union = _literal_union(self.notable + lacking) if lacking else None
        if union is None:
            return self.notable_candidates(low), ((), set())
        hits: set[int] = set()
        found: set[bytes] = set()
        match = union.search(low)
        while match is not None:
            at = match.start()
            start = low.rfind(b"\n", 0, at) + 1
            word = low[at : match.end()]
            if word in lacking:
                _find_any(low, self.notable, self.notable_union, hits, start)
                found.add(word)
                return hits, (tuple(found), found)
            hits.add(start)
            end = low.find(b"\n", at)
            end = len(low) if end < 0 else end
            found.update(word for word in lacking if low.find(word, at, end) >= 0)
            match = union.search(low, end) if end < len(low) else None
        return hits, (lacking, found)

    def cann_notable_candidates(self, block: bytes) -> set[int]:
        """The same for a CANN log's block, unfolded: only the phrases CANN itself writes (in
        lower case) cost a pass over its INFO chatter."""
        hits: set[int] = set()
        for word in self.notable_cann:
            _find_all(block, word, hits)
        return hits


_LAST_BUILT: dict[type, tuple[Any, Any, Any]] = {}


@lru_cache(maxsize=8)  # keyed by the prefilter's value and the matcher's identity
def _built(cls: type[BlockFilter], prefilter: Prefilter, checkpoints: Any) -> BlockFilter:
    return cls._build(prefilter, checkpoints)


_QUIET_LEVELS = (b"[INFO] ", b"[DEBUG] ", b"[TRACE] ")
_LOUD_LEVELS = (b"[ERROR] ", b"[WARNING] ", b"[EVENT] ", b"[WARN] ", b"[CRITICAL] ")
# Most common first: each level costs a pass over the block, and the search stops once every
# line is accounted for (a plog is mostly INFO with some WARNING/ERROR).
_PLOG_LEVELS = (b"[INFO] ", b"[WARNING] ", b"[ERROR] ", b"[DEBUG] ", b"[EVENT] ", b"[TRACE] ")
_PLOG_LEVELS += tuple(level for level in _LOUD_LEVELS if level not in _PLOG_LEVELS)


def plog_candidates(block: bytes, lines: int) -> set[int] | None:
    """Candidate lines of a block made only of CANN log lines (`[LEVEL] MODULE(...`).

    Such a line's level is its first word, so the loud ones (ERROR, WARNING, EVENT) are found
    by their start alone and INFO/DEBUG chatter costs one `bytes.count` per level instead of
    a keyword search. Returns None when some line of the block has another shape (then the
    keyword search must run). `lines`: the block's line count."""
    seen, starts = 0, set()
    for level in _PLOG_LEVELS:
        if seen >= lines:
            break
        seen += _lines_led_by(block, level, starts if level in _LOUD_LEVELS else None)
    return starts if seen >= lines else None


_QUIET_WORDS = (b"info ", b"debug ")
_LOUD_WORDS = (b"warning ", b"error ", b"warn ", b"critical ", b"fatal ")


ODD_RANGE_BYTES = 16 * 1024


@dataclass(frozen=True, slots=True)
class ShapedLines:
    """What `shaped_lines` found in a block: the starts of its loud lines of the shape, the
    quiet words that lead some line of the shape, and how many lines have another shape."""

    loud: set[int]
    quiet: tuple[bytes, ...]
    odd: int


def odd_ranges(folded: bytes, shape: bytes, found: ShapedLines, index: LineIndex) -> list:
    """Line-aligned ranges of a folded block that hold lines of another shape than the
    file's logging lines (a traceback, a plain print), found by halving down to
    `ODD_RANGE_BYTES`: a range whose lines all have the shape is dropped. The keyword search
    then runs on these few kilobytes instead of the whole block.

    Only a range's first half is counted: the lines of another shape in its second half are
    the range's less the first half's. A line of the shape is one led by a quiet word the
    block holds (counted) or one of the loud lines `shaped_lines` found (looked up), so a
    range costs one count per quiet word; its line ends come from the block's `index`."""
    loud = sorted(found.loud)
    quiet = tuple((b"\n" + shape + word, shape + word) for word in found.quiet)

    def odd_in(start: int, end: int) -> int:
        shaped = bisect_left(loud, end) - bisect_left(loud, start)
        for marker, head in quiet:
            shaped += _count_from(folded, marker, head, start, end)
        return index.newlines(start, end) - shaped

    def halve(start: int, end: int, odd: int) -> list:
        if end - start <= ODD_RANGE_BYTES:
            return [(start, end)]
        middle = folded.find(b"\n", (start + end) // 2, end - 1) + 1
        if middle <= start:
            return [(start, end)]
        first = odd_in(start, middle)
        return (halve(start, middle, first) if first else []) + (
            halve(middle, end, odd - first) if odd > first else []
        )

    return halve(0, len(folded), found.odd) if found.odd and folded else []


def _count_from(folded: bytes, marker: bytes, head: bytes, start: int, end: int) -> int:
    """Lines starting in [start, end) (both line starts) that begin with `head`; `marker`
    is `head` after a newline. A line at the block's start has no newline before it."""
    number = folded.count(marker, max(start - 1, 0), end + len(marker) - 2)
    return number + 1 if start == 0 and folded.startswith(head) else number


def shaped_scan(folded: bytes, shape: bytes, lines: int) -> tuple[set[int], bool]:
    """Candidate lines of a block of logging lines of one shape, and whether every line of
    the block has that shape (`shaped_lines`)."""
    found = shaped_lines(folded, shape, lines)
    return found.loud, not found.odd


def shaped_lines(folded: bytes, shape: bytes, lines: int) -> ShapedLines:
    """The loud lines of a block of logging lines of one shape, and how many lines have
    another shape.

    With times and numbers folded, lines printed by one logger share a prefix, so a count per
    level word tells whether every line is accounted for; then only the WARNING/ERROR ones are
    candidates and INFO chatter costs nothing. When some line has another shape (a traceback,
    a plain print) every level word that leads a line of the shape has been looked for, so
    the loud lines are all in the starts; `odd_ranges` then finds the other lines for the
    keyword search. Lines still unaccounted for after the WARNING lines are mostly of another
    shape (a job's own two watchdog lines in a rank log), so the shape's lines are then counted
    once: when the words so far account for them all, the rarer loud words lead no line and
    their four passes over the block are not made.
    """
    seen, starts, quiet = 0, set(), []
    shaped = lines  # lines of the shape: counted once some line is likely of another shape
    for word in _QUIET_WORDS + _LOUD_WORDS:
        if seen >= shaped:
            break
        number = _lines_led_by(folded, shape + word, starts if word in _LOUD_WORDS else None)
        if number and word in _QUIET_WORDS:
            quiet.append(word)
        seen += number
        if word == _LOUD_WORDS[0] and seen < lines:
            shaped = _lines_led_by(folded, shape, None)
    return ShapedLines(starts, tuple(quiet), max(lines - seen, 0))


def _lines_led_by(block: bytes, head: bytes, starts: set[int] | None) -> int:
    """How many lines of the block begin with `head`; with `starts`, their starts are added
    to it. Lines that are wanted are counted as they are found: one pass over the block,
    not a count and then a search for the same lines."""
    first = block.startswith(head)
    if starts is None:
        return block.count(b"\n" + head) + first
    if first:
        starts.add(0)
    return _find_all(block, b"\n" + head, starts, offset=1) + first


def _find_all(low: bytes, word: bytes, starts: set[int], offset: int | None = None) -> int:
    """Add the start of every line holding `word` and return how many there are; `offset`:
    the word's distance from the line start is known (a word that begins with the newline)."""
    found = 0
    at = low.find(word)
    while at >= 0:
        found += 1
        starts.add(at + offset if offset is not None else low.rfind(b"\n", 0, at) + 1)
        end = low.find(b"\n", at + 1)
        if end < 0:
            break
        at = low.find(word, end)
    return found


def _find_any(
    low: bytes, words: tuple[bytes, ...], union: Any, starts: set[int], start: int = 0
) -> None:
    """Add the start of every line holding one of `words`: in one pass of their union when
    there is one, else one `bytes.find` pass per word (the same lines either way). `start`:
    a line start before which the lines are known already (the word by word search reads
    them again)."""
    if union is not None:
        _search_all(low, union, starts, start)
        return
    for word in words:
        _find_all(low, word, starts)


def _search_all(data: bytes, pattern: Any, starts: set[int], start: int = 0) -> None:
    found = pattern.search(data, start)
    while found is not None:
        at = found.start()
        starts.add(data.rfind(b"\n", 0, at) + 1)
        end = data.find(b"\n", at)
        if end < 0:
            return
        found = pattern.search(data, end)


@lru_cache(maxsize=32)  # a few lists of words a job's files share
def _literal_union(words: tuple[bytes, ...]) -> Any:
    """`compile_literal_union`, once per list of words: every file's filter asks for the same
    keywords, and escaping a hundred of them byte by byte (RE2 caches only the compile) took
    a third of a millisecond a file, paid twice per rank by a job of a thousand ranks."""
    return compile_literal_union(words)
