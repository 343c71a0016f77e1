"""Learn, per file, the prefix that stands before every message; the checkpoint is the rest.

Tools put their own header in front of what a rank prints, and no list of tools is ever
complete::

    [2026-11-29 07:25:43.583] [RANK 0] [INFO] toy_decoder:  norm passed
    2026-11-29 07:25:43 | INFO | bisect | layer 2 passed
    [2026-11-29 07:25:43 TP3] (rank 3) megatron.bisect -  attention passed

`formats.lines.parse_line` peels the headers it knows; what is still in front of the message
is cut here, token by token from the start. The rule:

- **structural tokens** are cut wherever they lead: a time stamp (dates with `-`, `/` or `_`,
  CANN's `2025-05-16-20:08:19.072.297`, vLLM's `11-29 07:25:43`, a time of day, glog's
  `I1201 10:00:00.123456  1234 file.cc:12]`, syslog's `Nov 29 07:25:43`, logging's
  `%d-%b-%y` dates `29-Nov-26 07:25:43`), a bracketed or
  parenthesised tag without nesting (`[RANK 0]`, `[TP3]`, `(rank 3)`, `[file.py:12:fn]`), a
  bare rank tag glued to its number (`r3`, `rank3`) or spelt apart with a separator after it
  (`rank 3 - `), a
  `key=value` field (`rank=0`), a level word (`INFO`, `error`) and an arrow or chevron that
  leads a progress line (`==> layer 0 passed`, `>>> `, `» `). None of them can begin a
  checkpoint, and the matcher still requires the whole rest to be one;
- **labels** are one word before `: `, ` | `, ` - `, ` >> ` or a level word: a logger name
  such as `toy_decoder:`, the `toy_decoder` of `toy_decoder INFO: ...`, syslog's
  `host prog[pid]:`. A label is cut only when it is the file's repeated prefix: the same
  label, digits masked, led at least `MIN_REPEATS` (3) lines of the file. A line counts when
  this learner was shown it, or when it is one of the lines of the block the message came from
  (`context`) that holds the label at the start of its parsed message (at most
  `_CONTEXT_PROBES` such lines are parsed per label); so the first checkpoint of a file
  already counts the lines its logger printed around it, while "Note: attention passed"
  written once keeps its `Note:` and stays no checkpoint.

Cutting stops at the first token that may not be cut, and before a token that names a request
(`[req 3]`, `request_id=3`, `req-3:`) or a layer (`[layer 2]`, `[L2]`, `L2:`, `layer2:`): a
server's per-request checkpoints are told apart by it, and a part line that names its layer
is read in that layer, so it stays with the message for the matcher to read. Indentation after the prefix is kept
(one separating space is dropped): it carries nesting for a reader, while the layer of a
sub-module is decided by role in `checkpoints.LayerTracker`.

Cost: one regex match finds the leading run of tokens; its digit-masked text keys the set of
prefixes already known to be cut whole, so a file whose lines share a prefix shape pays a match,
a translate and a set lookup per line. Only lines with an unlearned label are tokenised.
A caller that must also honour patterns spanning the prefix matches the whole message when
the rest is no checkpoint (`scan._FileScanner._checkpoint_match`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from analyzers.core import regex_programs
from analyzers.formats.lines import parse_line
from analyzers.ingest.textio import clean_line

MIN_REPEATS = 3
MAX_SHAPES = 1024  # distinct masked prefixes remembered per file (bounded memory)
_CONTEXT_PROBES = 32  # lines of the context looked at per label, at most

_DIGITS = str.maketrans("0123456789", "0000000000")
_DIGIT_BYTES = bytes.maketrans(b"0123456789", b"0000000000")  # bytes.translate is ~10x faster
# Possessive quantifiers (`*+`, `++`): a token is read once, never re-split on a failed match,
# so a message with no prefix costs one short scan.
_STAMP = (
    r"\d{4}[-/]\d\d[-/]\d\d(?:[ T_-]\d\d:\d\d:\d\d(?:[.,:]\d++)*+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d++)?"
    r"|\d\d:\d\d:\d\d(?:[.,]\d++)?"
    r"|[IWEFVC]\d{3,8} \d\d:\d\d:\d\d\.\d++(?: ++\d++)? ++[^\s\]]++:\d++\]"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d"  # syslog
    # logging's datefmt "%d-%b-%y %H:%M:%S": `05-Dec-26 18:04:07`, `05/Dec/2026:18:04:07`
    r"|\d{1,2}[-/ ](?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[-/ ]\d\d(?:\d\d)?[ :]"
    r"\d\d:\d\d:\d\d(?:[.,]\d++)?"
)
_TAG = r"\[[^\[\]\n]{1,80}+\]|\([^()\n]{1,80}+\)"
# a bare rank tag: `r3`, `rank3`; spelt apart (`rank 3`) only as a field of its own, with a
# separator after it (`%(asctime)s - infer - rank 3 - INFO - ...`)
_RANK = (
    r"(?:[Rr]ank|RANK|[Rr])\d{1,5}+(?=[ \t])"
    r"|(?:[Rr]ank|RANK)[ \t]\d{1,5}+(?=[ \t]*+(?:[:|]|-(?=\s)))"
)
_FIELD = r"[A-Za-z_][\w.]{0,31}+=[^\s\[\]()=\"']{1,40}+(?=\s)"  # `rank=0`, `pid=1234`
# an arrow or chevron a team leads its progress lines with: `==> layer 0 passed`, `--> ...`,
# `>>> ...`, `» ...` (followed by a space: `->x` or `>>=` is no marker)
_MARK = r"(?:=++>|-++>|>{2,3}+|»)(?=[ \t])"
_LEVEL = (
    r"(?:DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL|TRACE"
    r"|debug|info|notice|warning|warn|error|critical|fatal|trace)\b"
)
# a name, with `:part`s (`toy.model:forward:42`) or `[pid]`; `]`: a header may have taken
# the `[` (`[INFO | megatron.core]:`); then its separator, or a level word after it
_LABEL = (
    r"[\w.-]{1,63}+ [A-Za-z_][\w./-]{0,63}+\[\d{1,9}+\]:(?=\s)"  # syslog `host prog[pid]:`
    r"|[A-Za-z_<][\w.<>/@-]{0,63}+(?::[\w.<>/@-]{1,63}+)*+(?:\[\d{1,9}+\])?+\]?"
    rf"(?::(?=\s)|[ \t]++(?:[|-]|>>|->|=>)(?=\s)|[ \t]*+\||(?=[ \t]++(?:{_LEVEL})[:\s]))"
)
_SEPARATOR = r"[ \t]*+(?:[:|]|-(?=\s))?+[ \t]*+"
_TOKEN_SOURCE = (
    rf"{_SEPARATOR}(?:(?P<stamp>{_STAMP})|(?P<tag>{_TAG})|(?P<rank>{_RANK})|(?P<level>{_LEVEL})"
    rf"|(?P<field>{_FIELD})|(?P<mark>{_MARK})|(?P<label>{_LABEL}))"
)
_TOKEN = regex_programs.compile(_TOKEN_SOURCE)
# a token that names the request a server's line is about (`[req 3]`, `(request #3)`,
# `request_id=3`, `req-3:`) or the layer a part line ran in (`[layer 2]`, `[L2]`, `L2:`,
# `layer2:`, the key=value field `layer=2`; a bare `L2 ` is an L2 norm)
_SCOPE = regex_programs.compile(
    r"[\[(]?(?i:req(?:uest)?)(?:[ _-]?(?i:id))?(?:\s*[=:#-]\s*|\s+|[_-])#?\d"
    r"|\[? ?(?:(?i:layer)(?:[ _-]?| ?= ?)\d|L\d+ ?[\]/:|])"
)
_RUN = regex_programs.compile(rf"(?:{_TOKEN_SOURCE})+")
# a terminal's colour codes, which a coloured logger may put inside a label
# (`\x1b[36mrank0\x1b[0m:\x1b[36minfo\x1b[0m - `): the label's text is looked for without them
_ESCAPES = regex_programs.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
_FIRST_DIGIT = re.compile(r"\d")
_AFTER = regex_programs.compile(r"(?:[ \t]*(?:[:|]|-(?=\s)))?[ \t]?")


class CheckpointPrefix:
    """One file's learned prefix; `strip` gives the message after it."""

    def __init__(self) -> None:
        self._whole: set[bytes] = set()  # masked prefixes cut whole
        self._before_scope: dict[bytes, int] = {}  # masked prefixes cut up to a request/layer tag
        self._shown: Counter[str] = Counter()  # masked label -> lines shown with it
        self._in_context: dict[str, int] = {}  # masked label -> context lines with it

    def strip(self, message: str, context: bytes | None = None) -> str:
        """`message` without the file's prefix (the same object when nothing is cut).

        `context`: the raw block the message's line was read from, to count a label's lines.
        """
        run = _RUN.match(message)
        if run is None:
            return message
        end = run.end()
        key = message[:end].encode("utf-8", "replace").translate(_DIGIT_BYTES)
        if key in self._before_scope:
            end = self._before_scope[key]
        elif key not in self._whole:
            cut, whole = self._decide(message, end, context)
            if whole and len(self._whole) + len(self._before_scope) < MAX_SHAPES:
                if cut == end:
                    self._whole.add(key)
                else:
                    self._before_scope[key] = cut
            end = cut
        if end == 0:
            return message
        return message[_AFTER.match(message, end).end() :]  # type: ignore[union-attr]

    def _decide(self, message: str, end: int, context: bytes | None) -> tuple[int, bool]:
        """Where to cut the prefix `message[:end]`, and whether the cut is settled (all of it,
        or all before a request or layer tag) rather than held by a label not yet learned."""
        cut = 0
        for found in _tokens(message, end):
            if _SCOPE.match(message, _AFTER.match(message, cut).end()):  # type: ignore[union-attr]
                return cut, True
            label = found.group("label")
            if label is not None and not self._learned(label, context):
                return cut, False
            cut = found.end()
        return cut, True

    def _learned(self, label: str, context: bytes | None) -> bool:
        """Whether `label` led at least MIN_REPEATS lines; counts this line as shown."""
        masked = label.translate(_DIGITS)
        if len(self._shown) < MAX_SHAPES or masked in self._shown:
            self._shown[masked] += 1
        if context is not None and masked not in self._in_context:
            self._in_context[masked] = _lines_led_by(context, label, masked)
        repeats = max(self._shown[masked], self._in_context.get(masked, 0))
        return repeats >= MIN_REPEATS


def _lines_led_by(context: bytes, label: str, masked: str) -> int:
    """How many lines of `context` (up to MIN_REPEATS) carry `label` in the leading run of
    prefix tokens of their message (what `parse_line` leaves, as for the line being learned);
    only the first `_CONTEXT_PROBES` lines holding its text are parsed. A label with a number
    in it (`restore:31`, logging's `%(name)s:%(lineno)d`) is looked for up to its first digit:
    each record names another source line, and the masked label decides."""
    head = label.rstrip(" \t:|->=]")
    digit = _FIRST_DIGIT.search(head)
    if digit is not None and digit.start() > 0:
        head = head[: digit.start()]
    needle = head.encode("utf-8", "replace")  # colour codes may follow
    if b"\x1b" in context and needle not in context:
        context = _ESCAPES.sub(b"", context)
    lines, probes = 0, 0
    at = context.find(needle)
    while at >= 0 and lines < MIN_REPEATS and probes < _CONTEXT_PROBES:
        start = context.rfind(b"\n", 0, at) + 1
        end = context.find(b"\n", at)
        end = len(context) if end < 0 else end
        probes += 1
        if masked in _leading_labels(parse_line(clean_line(context[start:end])).message):
            lines += 1
        at = context.find(needle, end)
    return lines


def _leading_labels(message: str) -> list[str]:
    """The masked labels among the leading prefix tokens of a message."""
    run = _RUN.match(message)
    if run is None:
        return []
    labels = (found.group("label") for found in _tokens(message, run.end()))
    return [label.translate(_DIGITS) for label in labels if label is not None]


def _tokens(text: str, end: int) -> Iterator[re.Match[str]]:
    """The tokens of the run `_RUN` matched in `text[:end]`, one after the other (read in the
    whole text: a label's separator looks at the character after it)."""
    at = 0
    while at < end:
        found = _TOKEN.match(text, at)
        if found is None or found.end() == at:
            return
        yield found
        at = found.end()
