"""What the per-format modules share: a line header pattern and the parsed line.

A header module lists `HEADERS`: regexes anchored at the start of a line (after wrapper
prefixes are gone) with optional named groups `level`, `ts`, `pid`, `rank`. The text after
the match is the line's message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from analyzers.core import regex_programs
from analyzers.formats.timestamps import PartialTime

LEVELS = {
    "I": "INFO",
    "INFO": "INFO",
    "W": "WARNING",
    "WARN": "WARNING",
    "WARNING": "WARNING",
    "E": "ERROR",
    "ERROR": "ERROR",
    "ERR": "ERROR",
    "F": "CRITICAL",
    "C": "CRITICAL",
    "FATAL": "CRITICAL",
    "CRITICAL": "CRITICAL",
    "D": "DEBUG",
    "V": "DEBUG",  # torch's (and glog's) verbose records
    "DEBUG": "DEBUG",
    "TRACE": "DEBUG",
    "EVENT": "EVENT",
}
QUIET_LEVELS = frozenset({"INFO", "DEBUG"})
# What follows the bracketed level that opens a CANN log's record (`[ERROR] RUNTIME(987,):`,
# `[ERROR] TSCH(-1,null):`, `formats.plog`) or torch_npu's PTA line (`[ERROR] 2025-05-16-20:08:19
# (PID:...`, `formats.torch_npu`): a reader of a bare bracketed level leaves these to them.
CANN_RECORD_AFTER_LEVEL = r"[A-Za-z][\w-]*\(-?\d+[,:][^)]*\):|\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d "
# Inference engines a serving frontend runs as a child process and whose lines it relays in
# records of its own behind the engine's name in capitals (`... INFO x::engine: VLLM: ...`,
# `formats.lines`).
RELAYED_ENGINES = ("VLLM", "SGLANG", "TRTLLM", "TENSORRT_LLM")


@dataclass(frozen=True, slots=True)
class Header:
    source: str
    pattern: re.Pattern[str]
    # a writer whose level field is a number of its own: the number -> the level's name
    levels: tuple[tuple[str, str], ...] = ()


def header(source: str, regex: str, levels: tuple[tuple[str, str], ...] = ()) -> Header:
    return Header(source, regex_programs.compile(regex), levels)


# The words a structured record's progress event ends with (`layer_passed`, `msg="norm done"`):
# such an event with the layer in a field of its own reads as the printed `layer N ...` line.
PROGRESS_WORDS = r"(?:passed|done|finished|complete|completed|ok|succeeded)"


def normal_level(raw: str | None) -> str | None:
    if raw is None:
        return None
    return LEVELS.get(raw.upper())


@dataclass(slots=True)
class ParsedLine:
    """One line split into its wrappers, header fields and message."""

    text: str
    message: str
    source: str | None = None
    level: str | None = None
    rank: int | None = None
    local_rank: int | None = None
    pid: int | None = None
    time: datetime | PartialTime | None = None
    collected: bool = False  # `time` is a log collector's stamp, not the program's own
    stream_key: str = ""  # which interleaved writer the line came from ([default3], Ray tag)
    tags: dict[str, str] = field(default_factory=dict)


def peel_writer(line: ParsedLine, text: str, pattern: re.Pattern[str]) -> bool:
    """Peel a prefix that only names the line's writer (a service column, a daemon, a quote
    mark): it joins the writer's key and the rest of the line becomes the message."""
    found = pattern.match(text)
    if found:
        line.stream_key += found.group(0).strip()
        line.message = text[found.end() :]
    return found is not None


def last_with_text(tail: Sequence[tuple[int, ParsedLine]]) -> tuple[int, ParsedLine] | None:
    """The last (line number, line) of a file's tail whose message holds text: the line a
    log ends on, blank lines after it skipped."""
    for lineno, line in reversed(tail):
        if line.message.strip():
            return lineno, line
    return None
