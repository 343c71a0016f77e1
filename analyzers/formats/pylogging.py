"""Python `logging` records whose renderer writes more than a header: the pairs and the
quoted message that follow it, and the format's names.

2026-12-05T07:16:03.159215Z [info     ] layer 0 passed                 rank=2
                                          (structlog's ConsoleRenderer: the level padded in
                                           brackets, the event padded to 30 columns, then the
                                           bound pairs, read by `console_pairs`)
ts=2026-12-04T18:34:36.707Z level=info rank=1 msg="  norm passed"
                                          (logfmt: key=value pairs, the rank among them, the
                                           message quoted last; `LOGFMT_OPEN` ends the header,
                                           `logfmt_pairs` and `logfmt_message` read the rest)
2026-12-07T12:16:55.853+0000 INFO  moe_infer rank=1 | layer 1 norm passed
                                          (a job's own Formatter: the level padded, the
                                           logger's name, its `rank=N`, a bar; the ISO time,
                                           zoned as `%z` writes it, is peeled first as a
                                           collector's stamp and given back by `lines`)

`formats.lines` asks these for each line one of their headers opened. The table of every
logging header, these among them, is `formats.logging_headers`, built from the pieces in
`formats.logging_fields`.
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats.base import PROGRESS_WORDS, ParsedLine, header, normal_level
from analyzers.formats.logging_fields import LEVEL, LOGFMT_TS, ZONED_DATE

NAME = "logging"
VLLM = "vllm"
SGLANG = "sglang"

LOGFMT_OPEN = 'msg="'
LOGFMT_ANY_ORDER = header(
    NAME,
    LOGFMT_TS + r"(?P<pairs>(?: (?!msg=)[\w.]+=(?:\"[^\"]*\"|[^\s\"]\S*))+) " + LOGFMT_OPEN,
)
_LOGFMT_FIELD = regex_programs.compile(r"(?:^| )(level|lvl|rank|global_rank)=\"?([\w.]+)\"?(?= |$)")
_LOGFMT_LAYER = regex_programs.compile(r" layer=\"?(\d+)\"?(?= |$)")
_PROGRESS_END = regex_programs.compile(r"\b" + PROGRESS_WORDS + r"\s*$")
_NAMES_LAYER = regex_programs.compile(r"\s*(?i:layer)\b")
# the pair a logfmt renderer puts the exception's text in, after the message
_LOGFMT_ERROR = regex_programs.compile(r' (?:error|exception|exc_info|err)="((?:[^"\\]|\\.)+)"')

# structlog's ConsoleRenderer, its default: the level lower-case and padded in brackets, the
# event padded to 30 columns, then the bound pairs (`console_pairs` reads them)
CONSOLE_PAIRS_AT = 30
# (a level name padded to 9 inside the brackets; the time before it, ISO with a Z, is peeled
# first as a log collector's stamp would be, and given back by `lines`; a TimeStamper given
# a time of day only, `fmt="%H:%M:%S"`, writes the clock alone there)
_CLOCK = r"\d\d:\d\d:\d\d(?:[.,]\d+)?"
STRUCTLOG_CONSOLE = header(
    NAME,
    r"(?:(?P<ts>" + ZONED_DATE + r"|" + _CLOCK + r") )?\[(?=[a-z ]{9}\] )"
    r"(?P<level>debug|info|warning|error|critical|exception|notset) *\] ",
    (
        ("debug", "DEBUG"),
        ("info", "INFO"),
        ("warning", "WARNING"),
        ("error", "ERROR"),
        ("critical", "CRITICAL"),
        ("exception", "ERROR"),
    ),
)
# a job's own Formatter that writes the level padded, the logger's name and the rank as a key
# before a bar: "INFO  moe_infer rank=1 | layer 1 norm passed" (its zoned ISO time before it
# is peeled first, as a collector's stamp would be, and given back by `lines`)
LEVEL_NAME_RANK_BAR = header(
    NAME,
    r"(?:(?P<ts>"
    + ZONED_DATE
    + r")\s+)?"
    + LEVEL
    + r"\s+[A-Za-z_][\w.-]*\s+(?i:rank)=(?P<rank>\d+)\s+\|\s+",
)
# the headers whose own time a collector-stamp wrapper may have peeled first
OWN_STAMP_PEELED_FIRST = (STRUCTLOG_CONSOLE, LEVEL_NAME_RANK_BAR)
_PAIRS_TAIL = regex_programs.compile(
    r"(?P<pad> +)(?P<pairs>[A-Za-z_][\w.]*=(?:'[^']*'|\"[^\"]*\"|[^\s'\"]\S*)"
    r"(?: [A-Za-z_][\w.]*=(?:'[^']*'|\"[^\"]*\"|[^\s'\"]\S*))*)$"
)
_RANK_PAIR = regex_programs.compile(r"(?:^| )(?:rank|global_rank)=(\d{1,6})(?= |$)")


def console_pairs(line: ParsedLine) -> None:
    """The bound pairs after a ConsoleRenderer event: dropped from the message, a `rank`
    among them is the writer's. The event is padded to 30 columns before them; a longer
    event is followed by one space."""
    message = line.message
    for found in _PAIRS_TAIL.finditer(message):
        start = found.start()
        padded = len(found.group("pad")) > 1 and start + len(found.group("pad")) == (
            CONSOLE_PAIRS_AT + 1
        )
        if padded or start >= CONSOLE_PAIRS_AT:
            break
    else:
        return
    said = _RANK_PAIR.search(found.group("pairs"))
    if said and line.rank is None:
        line.rank = int(said.group(1))
    line.message = message[:start]


def logfmt_pairs(line: ParsedLine, head: str) -> None:
    """The level and the writer's rank among the pairs of a logfmt header in any order; a
    field a header group already gave is kept."""
    for key, value in _LOGFMT_FIELD.findall(head):
        if key in ("level", "lvl"):
            line.level = line.level or normal_level(value)
        elif line.rank is None and value.isdigit():
            line.rank = int(value)


def _named_layer(message: str, pairs: str) -> str:
    """A progress message with the layer it ran in as a pair of its own (`msg="norm passed"
    layer=7`) names that layer (`layer 7 norm passed`), as a print that states it would; a
    message that names a layer itself is kept."""
    found = _LOGFMT_LAYER.search(pairs)
    if found is None or not _PROGRESS_END.search(message) or _NAMES_LAYER.match(message):
        return message
    return f"layer {found.group(1)} {message.strip()}"


def logfmt_message(rest: str) -> str:
    """The quoted value a logfmt header opened, up to its closing quote, with its escaped
    quotes restored. A value cut before its quote is kept whole. The pairs after it are
    dropped, but for the one an error's text was put in (`msg="model run failed"
    error="RuntimeError: ..."`): it follows the message as `: <text>`, as a logging call
    that formats the exception into its message would print it."""
    out, i = [], 0
    while i < len(rest):
        char = rest[i]
        if char == "\\" and i + 1 < len(rest) and rest[i + 1] in '"\\':
            out.append(rest[i + 1])
            i += 2
            continue
        if char == '"':
            out = [_named_layer("".join(out), rest[i + 1 :])]
            error = _LOGFMT_ERROR.search(rest, i + 1)
            if error:
                text = re.sub(r'\\(["\\])', r"\1", error.group(1)).split("\\n", 1)[0]
                out.append(": " + text)
            return "".join(out)
        out.append(char)
        i += 1
    return "".join(out).rstrip()
