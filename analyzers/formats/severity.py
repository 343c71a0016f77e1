"""Decide whether a parsed line is an error, a warning or noise, and load the prefilter.

The words live in `knowledge/prefilter.yaml`. A line's own level wins (plog `[ERROR]`,
logging `ERROR`, glog `E1129`); INFO/DEBUG lines are noise whatever they say, since big logs
print "retry failed" style chatter at INFO, except the phrases `notable_info` lists. Lines
without a level are judged by their words, and those phrases count for them as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.signal_names import Names, expand, keywords, load_signal_names
from analyzers.core.types import EventKind
from analyzers.core.yamlcheck import parse_yaml_file
from analyzers.formats.base import QUIET_LEVELS, ParsedLine

PREFILTER_FILE = Path(__file__).resolve().parents[1] / "knowledge" / "prefilter.yaml"
ERROR_LEVELS = frozenset({"ERROR", "CRITICAL"})
# an option of a command line: `--timeout`, `--max-failures=3`, `-u`
_OPTION_TOKEN = regex_programs.compile(r"(?<!\S)--?[A-Za-z][\w.-]*(?:=\S*)?")
# Python source shown in a traceback (a logger may print it at ERROR level line by line):
# frames, code lines, ^^^^ markers. CANN trace lines (`...[FUNC:x][FILE:y][LINE:n]`) are not,
# nor is a keyword a slash follows: a path or a TensorFlow scope (`while/body/_1/AddN: ...`).
_PYTHON_SOURCE = regex_programs.compile(
    r"""\s*(?:File "|(?:raise|return|yield|await|assert|if|elif|for|while|with|else|try|except"""
    r"""|import|from|del|not|lambda)\b(?!/)|[~^]+\s*$"""
    r"""|[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\s*,\s*[A-Za-z_]\w*)*\s*(?:[-+*/]?=)\s"""
    r"""|[A-Za-z_][\w.]*\((?!\)\s*:|s\)\s)(?![^()\n]*\):\s+\S))"""  # a call, not `what():` nor
    # English `key(s) in`, nor a label with its parameters before a colon and its text
    # (`  CONCAT(type=f32,dim=0): CANN error: ...`, a backend test's case and its result)
)
# IPython and Jupyter print a frame's source with its line numbers, the running line marked by
# an arrow (`--> 358         raise RuntimeError("...")`), the lines around it indented
# (`    357     if not is_initialized():`). The arrow line is always source; a context line
# is when what follows its number reads as Python.
_NUMBERED_SOURCE = regex_programs.compile(r"(?P<arrow>\s*-+>|\s{2,})\s*\d+(?P<code>\s{2,}\S.*)$")
# A paste whose line breaks were lost runs a frame, its source and the exception together on
# one line (`File "x.py", line 9, in f  work = g()  RuntimeError: ...`): that line is no
# longer source, it carries the error. A quoted one-liner (an FAQ entry, an issue title) may
# also have lost the blank after the colon (`in f: KeyError:'x'`); a quote still opens the text.
_JOINED_EXCEPTION = regex_programs.compile(
    r"\s(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception):(?:\s|['\"])"
)
# The same paste can end on the frame and its `raise XError("...")` with the exception line
# itself lost: the raise, joined to its frame, is then the only record of what failed.
JOINED_RAISE = regex_programs.compile(
    r"\s{2,}raise\s+(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)\(\s*[rfbu]?[\"']"
)
# The same paste can lose only the break between a frame's source line and the exception under
# it (`    call(coalesced, *args)  RuntimeError: NCCL error in: ...`): two blanks or more then a
# class and its colon, which a statement does not hold, so the line carries the error.
SOURCE_THEN_EXCEPTION = regex_programs.compile(
    r"\S\s{2,}(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception):\s"
)


@dataclass(frozen=True, slots=True)
class Prefilter:
    keywords: tuple[bytes, ...]
    patterns: tuple[re.Pattern[bytes], ...]
    error_words: re.Pattern[str]
    warning_words: re.Pattern[str]
    benign: re.Pattern[str]
    notable_info: tuple[bytes, ...] = ()
    notable_in_cann_logs: tuple[bytes, ...] = ()  # the ones CANN's own logs write at INFO
    refusal_words: re.Pattern[str] | None = None
    frame_lines: re.Pattern[str] | None = None
    stall_frames: re.Pattern[str] | None = None
    warning_lines: re.Pattern[str] | None = None
    warning_caught_errors: re.Pattern[str] | None = None
    warning_skipped_collectives: re.Pattern[str] | None = None
    pending_words: re.Pattern[str] | None = None
    closing_words: re.Pattern[str] | None = None
    leaving_words: re.Pattern[str] | None = None  # a rank saying it leaves on purpose
    leaving_failures: re.Pattern[str] | None = None  # ... unless the line names a failure
    path_folders: re.Pattern[str] | None = None
    state_dumps: re.Pattern[str] | None = None  # state records written when a program fails
    side_services: re.Pattern[str] | None = None  # a library's optional helper that failed
    echoed_commands: re.Pattern[str] | None = None  # a shell's trace of the commands it ran
    command_lines: re.Pattern[str] | None = None  # a launch command kept as a line of its own
    command_wrappers: re.Pattern[str] | None = None  # `timeout -s TERM 45 ` before a command


@lru_cache(maxsize=1)
def load_prefilter() -> Prefilter:
    data = parse_yaml_file(PREFILTER_FILE)
    if any(not word for word in data["keywords"]):
        raise ValueError(f"{PREFILTER_FILE.name}: empty keyword")
    words = load_signal_names(PREFILTER_FILE.parent)
    return Prefilter(
        keywords=_keywords(data["keywords"], words),
        patterns=tuple(regex_programs.compile(str(p).encode()) for p in data.get("patterns", ())),
        error_words=regex_programs.compile(
            expand(_squash(data["error_words"]), words, f"{PREFILTER_FILE.name}: error_words"),
            re.IGNORECASE,
        ),
        warning_words=regex_programs.compile(_squash(data["warning_words"]), re.IGNORECASE),
        benign=regex_programs.compile("|".join(f"(?:{p})" for p in data["benign"]), re.IGNORECASE),
        notable_info=tuple(str(p).lower().encode() for p in data.get("notable_info", ())),
        notable_in_cann_logs=tuple(
            str(p).lower().encode() for p in data.get("notable_in_cann_logs", ())
        ),
        refusal_words=_optional(_squash(data.get("refusal_words") or ""), re.IGNORECASE),
        frame_lines=_optional(str(data.get("frame_lines") or ""), re.IGNORECASE),
        stall_frames=_optional(str(data.get("stall_frames") or "")),
        warning_lines=_optional(str(data.get("warning_lines") or "")),
        warning_caught_errors=_optional(str(data.get("warning_caught_errors") or "")),
        warning_skipped_collectives=_optional(str(data.get("warning_skipped_collectives") or "")),
        pending_words=_optional(str(data.get("pending_words") or "")),
        closing_words=_optional(_squash(data.get("closing_words") or ""), re.IGNORECASE),
        leaving_words=_optional(_squash(data.get("leaving_words") or ""), re.IGNORECASE),
        leaving_failures=_optional(_squash(data.get("leaving_failures") or ""), re.IGNORECASE),
        path_folders=_optional(str(data.get("path_folders") or "")),
        state_dumps=_optional(str(data.get("state_dumps") or "")),
        side_services=_optional(str(data.get("side_services") or "")),
        echoed_commands=_optional(str(data.get("echoed_commands") or "")),
        command_lines=_optional(str(data.get("command_lines") or "")),
        command_wrappers=_optional(str(data.get("command_wrappers") or "")),
    )


def _keywords(listed: list[Any], words: Names) -> tuple[bytes, ...]:
    """The keywords as a block is searched: lower-cased, a `{{name}}` standing for the shell's
    words of signal_names.yaml, whose letters outside ASCII stay as printed because the block's
    folding leaves them so (`Убито`, not `убито`)."""
    found: dict[bytes, None] = {}
    for word in listed:
        text = str(word)
        if text.startswith("{{"):
            where = f"{PREFILTER_FILE.name}: keywords"
            found.update(dict.fromkeys(w.encode().lower() for w in keywords((text,), words, where)))
        else:
            found[text.lower().encode()] = None
    return tuple(found)


def _optional(pattern: str, flags: int = 0) -> re.Pattern[str] | None:
    """A pattern the file may leave out (None: the check is skipped)."""
    return regex_programs.compile(pattern, flags) if pattern else None


def _squash(words: str) -> str:
    return "".join(str(words).split("\n")).replace(" |", "|").strip()


def classify(line: ParsedLine, prefilter: Prefilter) -> EventKind | None:
    """ERROR, WARNING or None (noise) for one parsed line."""
    if prefilter.stall_frames is not None and prefilter.stall_frames.match(line.message):
        return EventKind.ERROR  # a dumped stack stands where a process waits for ever
    if not line.message.strip() or _is_python_source(line.message):
        return None
    if prefilter.frame_lines is not None and prefilter.frame_lines.match(line.message):
        return None
    if prefilter.state_dumps is not None and prefilter.state_dumps.search(line.message):
        return None  # a record of the state a failing program was in, at whatever level
    if prefilter.side_services is not None and prefilter.side_services.search(line.message):
        return None  # an optional helper of a library that the job does not depend on
    if echoed_command(line.message, prefilter):
        return None
    if line.level in ERROR_LEVELS:
        return EventKind.ERROR
    if prefilter.warning_lines is not None and prefilter.warning_lines.match(line.message):
        return _caught_or_warning(line.message, prefilter)
    if line.level == "WARNING":
        return EventKind.WARNING
    if line.level in QUIET_LEVELS:
        return EventKind.WARNING if _notable(line.message, prefilter) else None
    words = classify_words(line.message, prefilter)
    if line.source == "cann" or prefilter.error_words.search(words):
        return EventKind.ERROR
    if prefilter.warning_words.search(words):
        return EventKind.WARNING
    return EventKind.WARNING if _notable(line.message, prefilter) else None


def classify_words(message: str, prefilter: Prefilter) -> str:
    """The words of a line without a level that its error and warning words are sought in:
    no benign phrase, no run folder, no launch option."""
    return _without_options(
        message, _unfoldered(prefilter.benign.sub(" ", message), prefilter), prefilter
    )


def _without_options(message: str, words: str, prefilter: Prefilter) -> str:
    """The words of a launch command without its options.

    A bundle often keeps the command that started the job (`/opt/venv/bin/torchrun
    --nproc-per-node=4 train.py --timeout 300 --faulthandler-signal`): its options name what
    the job may do (`--timeout`, `--max-failures`, `--abort-on-nan`), not what failed. Only a
    line that opens with a launcher or an interpreter, by its path or its name, is read so,
    also under the commands it was run with (`timeout -s TERM 45 torchrun ...`), whose words
    go with the options; the other words of the line still count (`... failed with exit
    status 1`).
    docs/labelling.md, "A job stopped from outside".
    """
    wrapped = launch_command(message, prefilter)
    if wrapped is None:
        return words
    if wrapped != message and prefilter.command_wrappers is not None:
        words = prefilter.command_wrappers.sub(" ", words, count=1)
    return _OPTION_TOKEN.sub(" ", words)


def launch_command(message: str, prefilter: Prefilter) -> str | None:
    """The launch command the line holds, without the wrappers it was run under (`timeout -s
    TERM 45 torchrun ...` gives `torchrun ...`), or None when the line is no such command."""
    commands = prefilter.command_lines
    if commands is None:
        return None
    wrappers = prefilter.command_wrappers
    found = wrappers.match(message) if wrappers is not None else None
    if found is not None:
        rest = message[found.end() :]
        if commands.match(rest) is not None:
            return rest
    return message if commands.match(message) is not None else None


def _notable(message: str, prefilter: Prefilter) -> bool:
    """The line holds a phrase that matters even at INFO level.

    A line with no level at all is no quieter than an INFO line: a paste that kept a logger's
    message but not its header, or a program that prints its progress, says the same thing.
    """
    lowered = message.lower().encode("utf-8", "replace")
    return any(phrase in lowered for phrase in prefilter.notable_info)


def _unfoldered(message: str, prefilter: Prefilter) -> str:
    """The message without the folders of the paths it names.

    Jobs name their run folders after what they try (`/runs/lr3e-4_no_abort/`, `exp_killed/`):
    a word there says nothing about this line. The file's own name stays, so a loader's
    `/x/libfoo.so: undefined symbol` still reads as its refusal.
    """
    folders = prefilter.path_folders
    return message if folders is None else folders.sub(" ", message)


def _caught_or_warning(message: str, prefilter: Prefilter) -> EventKind:
    """A warning, unless it quotes a failure its writer caught and went on from.

    The writer chose the level, but an allocator failure it swallowed leaves work half done
    (an entry that points at freed memory), and what fails later is explained by it; a
    collective the rank skipped leaves its group's other members waiting in it.
    """
    caught = prefilter.warning_caught_errors
    if caught is not None and caught.search(message):
        return EventKind.ERROR
    skipped = prefilter.warning_skipped_collectives
    if skipped is not None and skipped.search(message):
        return EventKind.ERROR
    return EventKind.WARNING


def echoed_command(message: str, prefilter: Prefilter) -> bool:
    """The line is a command a shell echoed before running it (`set -x`): what the script did
    next, not what failed."""
    echoed = prefilter.echoed_commands
    return echoed is not None and echoed.match(message) is not None


def reads_as_source(message: str) -> bool:
    """The line, indented or not, opens like a Python statement (`logger.error(f"...")`,
    `raise ...`, `x = ...`): code someone pasted, not what a program printed."""
    return bool(_PYTHON_SOURCE.match(message))


def _is_python_source(message: str) -> bool:
    if message.lstrip().startswith('File "'):
        return not (_JOINED_EXCEPTION.search(message) or JOINED_RAISE.search(message))
    numbered = _NUMBERED_SOURCE.match(message)
    if numbered is not None:
        return "-" in numbered.group("arrow") or bool(_PYTHON_SOURCE.match(numbered.group("code")))
    return (
        message[:1].isspace()
        and "[FUNC:" not in message
        and bool(_PYTHON_SOURCE.match(message))
        and not SOURCE_THEN_EXCEPTION.search(message)
    )
