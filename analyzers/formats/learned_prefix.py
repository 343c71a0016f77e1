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
from os.path import commonprefix

from analyzers.formats import outer_prefix

PROBE_LINES = 64  # non-empty lines of the file's head the prefix is learned from
PROBE_BYTES = 32 * 1024  # ... within its first bytes
MIN_LINES = 3  # fewer lines than this cannot show that a shape is the collector's
MAX_PREFIX = 120  # bytes of a line's start looked at
# "nearly all": a collector's own first line (a banner, a blank stamp) may lack the prefix
MISSES_PER_LINE = 1 / 16

_TOKEN = re.compile(rb"\d+|[A-Za-z_]+| +|[^\dA-Za-z_ ]")
_DIGITS, _WORDS, _SPACES = re.compile(rb"\d+"), re.compile(rb"[A-Za-z_]+"), re.compile(rb" +")
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
# a collector's prefix opens with a time, a number, a name or a bracket; an indent, a quote,
# a brace (a JSON record) or a stray control byte is the program's
_OPENING = re.compile(rb"[\dA-Za-z_\[(<]")
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
    if len(lines) < MIN_LINES or _opens_header(lines, 0):
        return None  # most logs: a program's own header opens their lines
    shapes = [_shape(line[:MAX_PREFIX]) for line in lines]
    need = len(lines) - int(len(lines) * MISSES_PER_LINE)
    shared, reference = 0, 0
    for index, shape in enumerate(shapes[:3]):
        agreements = sorted((_agree(shape, other) for other in shapes), reverse=True)
        if agreements[need - 1] > shared:
            shared, reference = agreements[need - 1], index
    if not shared:
        return None
    tokens = _TOKEN.findall(lines[reference][:MAX_PREFIX])
    agreeing = [
        _TOKEN.findall(line[:MAX_PREFIX])
        for line, shape in zip(lines, shapes, strict=True)
        if _agree(shapes[reference], shape) >= shared
    ]
    cut = _cut(tokens[:shared], lines, agreeing)
    return _compile(tokens[:cut], agreeing) if cut else None


def _probe(head: bytes) -> list[bytes]:
    probe = head[:PROBE_BYTES]
    lines = probe.split(b"\n", 2 * PROBE_LINES)  # room for the empty lines among them
    if len(lines) > 2 * PROBE_LINES or len(probe) < len(head) or not lines[-1]:
        lines.pop()  # the rest of the probe, a line the probe cut, or the final newline
    filled = [line.rstrip(b"\r") for line in lines if line.strip()]
    return filled[:PROBE_LINES]


def _kind(token: bytes) -> bytes:
    first = token[:1]
    if first.isdigit():
        return b"9"
    if first.isalpha() or first == b"_":
        return b"a"
    return b" " if first == b" " else token


def _shape(line: bytes) -> bytes:
    """One byte per token: its kind (`_kind`), made by whole-line substitutions, so a line
    costs three passes in C rather than a Python step per token."""
    return _SPACES.sub(b" ", _WORDS.sub(b"a", _DIGITS.sub(b"9", line)))


def _agree(shape: bytes, other: bytes) -> int:
    """How many tokens two lines' shapes share from their start."""
    if shape[:1] != other[:1]:
        return 0
    # byte by byte is the point here: each byte of a shape is one token
    return len(commonprefix([shape, other]))  # noqa: RUF071


def _cut(shared: list[bytes], lines: list[bytes], agreeing: list[list[bytes]]) -> int:
    """The tokens of the prefix: up to the last space of the shared run before a program's
    own header starts, or none when the run is not a collector's."""
    if not shared or not _OPENING.match(shared[0]):
        return 0
    cut, offset = 0, 0
    for index, token in enumerate(shared):
        offset += len(token)
        if token[:1] != b" ":
            continue
        if _is_collectors(shared[: index + 1], agreeing, cut):
            cut = index + 1
        if _opens_header(lines, offset) or _opens_known(lines, offset):
            break
    return cut if cut and not _explained(shared[:cut], lines) else 0


def _opens_header(lines: list[bytes], offset: int) -> bool:
    """Most lines hold a program's own header at `offset`."""
    return sum(1 for line in lines if _HEADER.match(line, offset)) * 2 > len(lines)


def _opens_known(lines: list[bytes], offset: int) -> bool:
    """Most lines go on at `offset` with a prefix `formats.outer_prefix` knows (pdsh's host,
    srun's task): it names the writer, so it stays for `formats.wrappers` to read."""
    found = (_OUTER.match(line, offset) for line in lines)
    return sum(1 for match in found if match and match.end() > offset) * 2 > len(lines)


def _is_collectors(prefix: list[bytes], agreeing: list[list[bytes]], done: int = 0) -> bool:
    """A run ending at a space that a collector, not the program, wrote: it holds none of the
    program's own words, and past a collector's time it ends in a separator, holds a number
    (a time, an id the collector counts) or is one name on every line (a stream's)."""
    source = b"".join(prefix)
    words = {token.lower() for token in prefix if token[:1].isalpha()}
    # a JSON record's or a printed dict's keys are the program's
    if words & _PROGRAM_WORDS or len(source) > MAX_PREFIX - 20 or _KEY.search(source):
        return False
    # past a run already taken (`done` tokens) only what follows it must look like a collector's
    start = max(_time_tokens(prefix), done)
    rest = prefix[start:]
    if len(rest) < 2:
        return False  # the time alone, or nothing: `outer_prefix`'s to peel
    if rest[-2][0] in _SEPARATORS:
        return True
    if start and _is_name(rest, start, agreeing):
        return True
    numbers = sum(1 for token in rest if token[:1].isdigit())
    # a run opening with a word is a collector's only as a time (`Mar 1, 2026 @ 10:22:05 `)
    return numbers >= (3 if rest[0][:1].isalpha() else 1)


def _time_tokens(prefix: list[bytes]) -> int:
    """How many tokens a collector's zoned time opening the run takes."""
    time = _COLLECTOR_TIME.match(b"".join(prefix))
    length = 0
    for index, token in enumerate(prefix):
        length += len(token)
        if time is not None and length == time.end():
            return index + 1
    return 0


def _is_name(rest: list[bytes], start: int, agreeing: list[list[bytes]]) -> bool:
    """The same text on every line, with a digit or punctuation in it (a stream's path, a
    host's name), not a word the program writes first on each line (`NCCL INFO ...`)."""
    # the closing space may run on into the program's own indent
    name = rest[:-1]
    same = all(tokens[start : start + len(name)] == name for tokens in agreeing)
    return same and any(not token[:1].isalpha() and token != b" " for token in rest)


def _explained(prefix: list[bytes], lines: list[bytes]) -> bool:
    """The known collector prefixes (`formats.outer_prefix`) already peel the run, or peel a
    prefix that names its writer (the journal's host and program, compose's service), after
    which the line is the program's own. Only a collector's bare time is learned past."""
    length = len(b"".join(prefix))
    found = _OUTER.match(lines[0])
    if found is None or not found.end():
        return False
    return found.end() >= length or not _COLLECTOR_TIME.fullmatch(found.group(0))


def _compile(prefix: list[bytes], agreeing: list[list[bytes]]) -> LearnedPrefix:
    # the space that ends the prefix is one: more is the indent of the program's own line
    parts = [b" "] * len(prefix)
    for index, token in enumerate(prefix[:-1]):
        if all(len(tokens) > index and tokens[index] == token for tokens in agreeing):
            parts[index] = re.escape(token)
        else:
            parts[index] = {b"9": rb"\d+", b"a": rb"[A-Za-z_]+", b" ": rb" +"}[_kind(token)]
    kept = _time_tokens(prefix)
    if kept and kept < len(prefix):
        body = b"(" + b"".join(parts[:kept]) + b")" + b"".join(parts[kept:])
        return LearnedPrefix(re.compile(rb"(?m)^" + body), keeps_time=True)
    return LearnedPrefix(re.compile(rb"(?m)^" + b"".join(parts)))
