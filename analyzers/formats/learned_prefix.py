"""A prefix a log collector put in front of every line, learned from the file's first lines.

`formats.outer_prefix` and `formats.wrappers` know the prefixes of many collectors by name.
Others write their own, and there are more of them than a list can hold:

    2026-12-06T10:11:12.123456+00:00 app[worker.1]: [rank3]: Traceback ...   (Heroku)
    1733475312.123 [rank3]: Traceback ...                                    (epoch seconds)
    00:00:05 [rank3]: Traceback ...                                          (moreutils' ts -i)
    2026-12-06T10:11:12Z {app="trainer", pod="trainer-0"} [rank3]: ...       (Loki's logcli)

Behind such a prefix a CANN record no longer opens its line, a traceback's exception line is
not at the margin and a checkpoint line is not where its pattern looks. What every collector's
prefix has in common is that it is the same shape on every line: a run of digits here, a word
there, the same punctuation between. So the first lines of a file (a bounded probe of its first
block) are cut into such tokens, and the longest run of tokens (nearly) all of them share,
ending at a space, is the prefix; the tokens that are the same on every line stay literal.

It is learned only where nothing known explains it, and never from a program's own header:
the prefix stops where a known header starts (a level, glog's `I1206 ...`, torch's `[rankN]:`,
a CANN record's `[ERROR]`, a worker's `(... pid=N)`, a logging time followed by what logging
writes next), a file whose first line already opens with such a header, or whose shared run is
a prefix `formats.outer_prefix` already peels, learns nothing, and so does a shared run holding
the words a program's own lines repeat (`step`, `loss`, a level). A collector's time with its
zone opening the prefix is kept, written back as the known collector time that
`formats.wrappers` keeps for the line; any other part of the prefix is taken off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzers.formats import outer_prefix

PROBE_LINES = 64  # non-empty lines of the file's head the prefix is learned from
PROBE_BYTES = 32 * 1024  # ... within its first bytes
MIN_LINES = 4  # fewer lines than this cannot show that a shape is the collector's
MAX_PREFIX = 120  # bytes of a line's start looked at
# "nearly all": a collector's own first line (a banner, a blank stamp) may lack the prefix
MISSES_PER_LINE = 1 / 16

_TOKEN = re.compile(rb"\d+|[A-Za-z_]+| +|[^\dA-Za-z_ ]")
_OUTER = re.compile(outer_prefix.OUTER)
_COLLECTOR_TIME = re.compile(outer_prefix.COLLECTOR_TIME.encode() + rb" ")
_LEVEL = rb"(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL|NOTICE|TRACE|EVENT)"
# what a program's own header opens with (`formats.pylogging`, `glog`, `torch_npu`, `plog`,
# `worker_tags`), wherever a prefix before it stops
_HEADER = re.compile(
    rb"(?:\[?(?:rank|default)\d+\]?:"
    rb"|[IWEF]\d{4}(?:\d{4})? +\d\d:\d\d"
    rb"|\[(?:[IWEF]|" + _LEVEL + rb")[\] \d]"
    rb"|(?i:" + _LEVEL + rb")\b"
    rb"|\([^()\n]{0,80}pid=\d+"
    rb"|\((?:raylet|gcs_server|dashboard_agent)\b"
    # a logging time, not a collector's (a zone and a space after it: `outer_prefix`'s)
    rb"|\[\d{4}-\d\d-\d\d"
    rb"|\d{4}[-/]\d\d[-/]\d\d(?![T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d) )"
    rb"|Traceback \(|File \"|E[A-Z0-9]\d{4}:)"
)
# words a program repeats at the start of its own lines; a collector's prefix holds none
_PROGRAM_WORDS = frozenset(
    b"debug info warning warn error err critical fatal notice trace event rank default "
    b"pid tid step steps epoch iter iteration loss batch train eval file traceback".split()
)
_KEY = re.compile(rb"[\"']:")
_SEPARATORS = frozenset(b":|]>)}")


@dataclass(frozen=True, slots=True)
class LearnedPrefix:
    """The shape of the prefix every line carries, and the part of it kept (a collector's
    time), as one pattern over a whole block."""

    pattern: re.Pattern[bytes]
    keeps_time: bool = False

    def strip(self, block: bytes) -> bytes:
        """The block with the prefix taken off every line that has it (line ends stay where
        they are, so line numbers do not move)."""
        return self.pattern.sub(rb"\1" if self.keeps_time else b"", block)


def learn_prefix(head: bytes) -> LearnedPrefix | None:
    """The prefix the file's first lines share, or None when they share none a collector
    wrote."""
    lines = _probe(head)
    if len(lines) < MIN_LINES:
        return None
    tokenized = [_TOKEN.findall(line[:MAX_PREFIX]) for line in lines]
    need = len(lines) - int(len(lines) * MISSES_PER_LINE)
    best: tuple[int, list[bytes]] = (0, [])
    for reference in tokenized[:3]:
        shared = _shared_tokens(reference, tokenized, need)
        if shared > best[0]:
            best = (shared, reference)
    shared, reference = best
    agreeing = [tokens for tokens in tokenized if _agree(reference, tokens) >= shared]
    cut = _cut(reference[:shared], lines, agreeing)
    if cut == 0:
        return None
    return _compile(reference[:cut], agreeing)


def _probe(head: bytes) -> list[bytes]:
    probe = head[:PROBE_BYTES]
    lines = probe.split(b"\n")
    if len(probe) < len(head) or not lines[-1]:
        lines.pop()  # a line the probe cut, or the block's final newline
    filled = [line.rstrip(b"\r") for line in lines if line.strip()]
    return filled[:PROBE_LINES]


def _kind(token: bytes) -> bytes:
    first = token[:1]
    if first.isdigit():
        return b"9"
    if first.isalpha() or first == b"_":
        return b"a"
    return b" " if first == b" " else token


def _agree(reference: list[bytes], tokens: list[bytes]) -> int:
    count = 0
    for mine, theirs in zip(reference, tokens, strict=False):
        if _kind(mine) != _kind(theirs):
            break
        count += 1
    return count


def _shared_tokens(reference: list[bytes], tokenized: list[list[bytes]], need: int) -> int:
    """How many of `reference`'s first tokens `need` of the lines share in kind."""
    agreements = sorted((_agree(reference, tokens) for tokens in tokenized), reverse=True)
    return agreements[need - 1]


def _cut(shared: list[bytes], lines: list[bytes], agreeing: list[list[bytes]]) -> int:
    """The tokens of the prefix: up to the last space of the shared run before a program's
    own header starts, or none when the run is not a collector's."""
    if not shared or shared[0][:1] in b" '\"{" or _opens_header(lines, 0):
        return 0
    cut, offset = 0, 0
    for index, token in enumerate(shared):
        offset += len(token)
        if token[:1] != b" ":
            continue
        if _is_collectors(shared[: index + 1], agreeing):
            cut = index + 1
        if _opens_header(lines, offset):
            break
    return cut if cut and not _explained(shared[:cut], lines) else 0


def _opens_header(lines: list[bytes], offset: int) -> bool:
    """Most lines hold a program's own header at `offset`."""
    return sum(1 for line in lines if _HEADER.match(line, offset)) * 2 > len(lines)


def _is_collectors(prefix: list[bytes], agreeing: list[list[bytes]]) -> bool:
    """A run ending at a space that a collector, not the program, wrote: it holds none of the
    program's own words, and it either ends in a separator or holds a number (a time, an id
    the collector counts)."""
    words = {token.lower() for token in prefix if token[:1].isalpha()}
    source = b"".join(prefix)
    # a JSON record's or a printed dict's keys are the program's
    if words & _PROGRAM_WORDS or len(source) > MAX_PREFIX - 20 or _KEY.search(source):
        return False
    before_space = prefix[-2] if len(prefix) > 1 else b""
    if before_space[:1] and before_space[0] in _SEPARATORS:
        return True
    numbers = sum(1 for token in prefix if token[:1].isdigit())
    # a run opening with a word is a collector's only as a time (`Mar 1, 2026 @ 10:22:05 `)
    return numbers >= (3 if prefix[0][:1].isalpha() else 1)


def _explained(prefix: list[bytes], lines: list[bytes]) -> bool:
    """The known collector prefixes (`formats.outer_prefix`) already peel the run."""
    length = len(b"".join(prefix))
    found = _OUTER.match(lines[0])
    return found is not None and found.end() >= length


def _compile(prefix: list[bytes], agreeing: list[list[bytes]]) -> LearnedPrefix:
    # the space that ends the prefix is one: more is the indent of the program's own line
    parts = [b" "] * len(prefix)
    for index, token in enumerate(prefix[:-1]):
        if all(len(tokens) > index and tokens[index] == token for tokens in agreeing):
            parts[index] = re.escape(token)
        else:
            parts[index] = {b"9": rb"\d+", b"a": rb"[A-Za-z_]+", b" ": rb" +"}[_kind(token)]
    source = b"".join(prefix)
    time = _COLLECTOR_TIME.match(source)
    kept = 0
    if time is not None:
        length = 0
        for index, token in enumerate(prefix):
            length += len(token)
            if length == time.end():
                kept = index + 1
                break
    if kept and kept < len(prefix):
        body = b"(" + b"".join(parts[:kept]) + b")" + b"".join(parts[kept:])
        return LearnedPrefix(re.compile(rb"(?m)^" + body), keeps_time=True)
    return LearnedPrefix(re.compile(rb"(?m)^" + b"".join(parts)))
