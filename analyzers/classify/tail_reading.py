"""A bundle with no error line at all is read at its files' tails.

The scan keeps, for each job log without an error event, its last lines as the error events
they would be had the prefilter let them through (`scan.quiet_tail`). When no file of the
bundle yields an error line, those lines are read as the gate's lines are: a line that a
signature reads, whose words the hints give a failure kind, or whose words the learned vote
labels (`classify.word_vote`) becomes an error event of its file, so the first-error choice
works on it as on any other::

    Unknown argument: --origin-rpc-server-main-gpu     -> a signature reads it
    npu is busy, check again                            -> its words name the device

A line that reads as code, or that says the job goes on (chatter), is never one, and the words
alone never read a detail line indented under another, a version banner or a command, a
debugger's frame, narration or table heading, a py-spy thread header (a stuck process
inspected by hand), a search path, a tool's header listing its settings, or a notice the
prefilter knows to be benign; a library's report on an optional helper of its own
(`side_services`) is not read at all. A file's tail ending on checkpoints or INFO lines holds
no line to read (`scan.quiet_tail`), so a real hang keeps its reading. Once any error line
exists, the tails are dropped unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.classify.hints import is_chatter, vote
from analyzers.classify.line_matches import LineReadings, match_line
from analyzers.classify.rules import Knowledge
from analyzers.classify.tiers import TIER_GENERIC, classify_event
from analyzers.classify.word_vote import read_words
from analyzers.core import regex_programs
from analyzers.core.types import Event, EventKind, FileScan
from analyzers.formats.severity import (
    echoed_command,
    launch_command,
    load_prefilter,
    reads_as_source,
)
from analyzers.formats.stack_dump import spy_layout
from analyzers.scan.quiet_tail import QUIET_TAIL

RULE, WORDS = "rule", "words"  # what read a tail line: a signature, or only the words

# A shell prompt before a typed command (`(base)$ python launch.py ...`, `user@host:~$ ls`)
_SHELL_PROMPT = regex_programs.compile(r"\s*(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+:\S*\s*)?\$\s+\S")
# An interpreter or launcher named with what it runs, wherever the line quotes it
_LAUNCH = regex_programs.compile(
    r"(?:^|[\s/])(?:python[\d.]*|torchrun|fleetrun|deepspeed|accelerate|mpirun|mpiexec|srun)"
    r"\s+(?:-{1,2}\w|\S+\.py\b)"
)
# A name before a colon that starts a line (`encoder.layers.0.attn.qkv.weight:`)
_LEADING_NAME = regex_programs.compile(r"^[\w.\[\]-]+\s*:\s*")
# A number or a list of numbers (`3072`, `3072, 1024`)
_NUMBERS = regex_programs.compile(r"\d+(?:\s*,\s*\d+)*")
# A start-up banner that only names a version (`NCCL version 2.18.6+cuda11.8`)
_VERSION_BANNER = regex_programs.compile(
    r"\s*(?:[\w.+-]+\s+){1,3}version:?\s+v?\d[\w.+-]*\s*$", re.I
)
# A debugger's frame of a native stack, or the position line it prints on attaching
# (`#3  0x00007f.. in MPIC_Recv () from /usr/lib64/libmpi.so.12`, `#15 doLaunches (head=...) at
# group.cc:163`, `0x00007f.. in poll () from /lib64/libc.so.6`): where a thread is, not what failed
_DEBUGGER_FRAME = regex_programs.compile(
    r"\s*(?:#\d+\s+(?:0x[0-9a-fA-F]+\s+in\s+)?|0x[0-9a-fA-F]+\s+in\s+)[^\s(]+\s*\("
)
# One word and a number (`Kernel 0`, a debugger's heading over the rows of one kernel)
_LONE_WORD = regex_programs.compile(r"\s*[A-Za-z][\w-]*[\s:#=]+\d+\s*$")
# Directories joined by colons, as a search-path value is (`/usr/sbin:/opt/x/bin:...`), whole
# or the piece of an echoed command a terminal wrapped. It is tried only where a run of path
# characters starts: a match inside a run is also one from the run's start, and trying every
# place inside a long run without colons costs the square of its length.
_SEARCH_PATH = regex_programs.compile(r"(?<![\w./+~-])(?:[\w.+~-]*/[\w./+~-]*:){2,}")
# What a debugger says of its own session while it attaches and loads symbols
_DEBUGGER_NARRATION = regex_programs.compile(
    r"\s*(?:\[Thread debugging using \w+ enabled\]|Using host libthread_db library\b"
    r"|\[New (?:Thread|LWP)\b|Reading symbols from\b|Attaching to (?:process|program)\b)"
)
# A tool's header comment listing its settings, name then number (`# nThread 1 nGpus 4
# minBytes 8 step: 2(factor) warmup iters: 5`)
_SETTINGS_COMMENT = regex_programs.compile(
    r"\s*#\s*(?:[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?:?\s+\d[\w.()+-]*\s*){3,}$"
)


def read_tails(scans: Sequence[FileScan], knowledge: Knowledge) -> list[Event]:
    """Add to each file the tail lines something reads, when the bundle has no error line;
    returns the events added. Every kept tail leaves the files' facts either way."""
    tails = [(scan, scan.facts.pop(QUIET_TAIL, None) or []) for scan in scans]
    if not any(tail for _, tail in tails) or _holds_error_line(scans, knowledge):
        return []
    added: list[Event] = []
    for scan, tail in tails:
        read = _read_lines(tail, knowledge)
        if read:
            scan.events.extend(read)
            scan.events.sort(key=lambda event: event.line)
            added += read
    return added


def _holds_error_line(scans: Sequence[FileScan], knowledge: Knowledge) -> bool:
    """An error event, or a warning that a rule reads as a failure (a library with no error
    level, NCCL, warns of its failures): a first error the bundle already offers."""
    read = LineReadings(knowledge)  # a quiet bundle may repeat one warning on every rank
    for scan in scans:
        for event in scan.events:
            if event.kind == EventKind.ERROR:
                return True
            warned = event.kind == EventKind.WARNING
            if warned and classify_event(event, 0, knowledge, read).tier >= TIER_GENERIC:
                return True
    return False


def _read_lines(tail: Sequence[Event], knowledge: Knowledge) -> list[Event]:
    """The lines of one file's tail that a rule reads, and the last one only the hints or the
    learned words read: a program's own report of why it stopped is its last word, while the
    earlier lines a short file keeps are its start-up output. When that last line ends a run
    of adjacent lines in one shape (a loader listing each parameter it could not fill, one per
    line: the same sentence after a different name, with other numbers), the report starts at
    the run's first line, which is cited instead."""
    readings = [(event, reads(event, knowledge)) for event in tail]
    worded = [event for event, reading in readings if reading == WORDS]
    last = _run_start(worded) if worded else None
    return [event for event, reading in readings if reading == RULE or event is last]


def _run_start(worded: Sequence[Event]) -> Event:
    """The first of the adjacent worded lines that share the last one's shape."""
    start = len(worded) - 1
    shape = _shape(worded[start])
    while (
        start > 0
        and worded[start - 1].line == worded[start].line - 1
        and _shape(worded[start - 1]) == shape
    ):
        start -= 1
    return worded[start]


def _shape(event: Event) -> str:
    """A line's words with its leading name (`encoder.norm.weight:`) and its numbers (one, or a
    list of them) taken out."""
    message = _NUMBERS.sub("0", (event.message or event.text).strip())
    return _LEADING_NAME.sub("", message, count=1)


def _command(message: str) -> bool:
    """A command as typed at a shell prompt, echoed by one or quoted by a tool (`Process 41:
    /srv/venv/bin/python3 -u infer.py --timeout 60`): what was run, whose options name what the
    job may do, not what failed."""
    prefilter = load_prefilter()
    if _SHELL_PROMPT.match(message) or echoed_command(message, prefilter):
        return True
    if _LAUNCH.search(message):
        return True
    return launch_command(message, prefilter) is not None


def _side_service(message: str) -> bool:
    """A library's report on an optional helper of its own that the job does not depend on
    (`prefilter.yaml`'s `side_services`, torchvision's image codecs that did not load): no
    event at any level, so no tail line either."""
    services = load_prefilter().side_services
    return services is not None and services.search(message) is not None


def reads(event: Event, knowledge: Knowledge) -> str | None:
    """`RULE` when a signature reads the line, `WORDS` when only the hints or the learned
    words read it as a failure, None when nothing does. A line indented under another
    (a block's detail), that only states a version or that holds a command is read by the
    rules alone."""
    message = event.message or event.text
    if reads_as_source(message) or is_chatter(message) or _side_service(message):
        return None
    if match_line(message, event.codes, knowledge):
        return RULE
    if event.text[:1].isspace() or _VERSION_BANNER.match(message) or _command(message):
        return None
    if _DEBUGGER_FRAME.match(message) or _DEBUGGER_NARRATION.match(message):
        return None
    if spy_layout(message):
        return None
    if (
        _LONE_WORD.match(message)
        or _SEARCH_PATH.search(message)
        or _SETTINGS_COMMENT.match(message)
    ):
        return None
    words = load_prefilter().benign.sub(" ", message)  # a known notice says nothing failed
    if not words.strip():
        return None
    return WORDS if vote(words) is not None or read_words(words) is not None else None
