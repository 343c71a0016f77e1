"""JSON-lines logs: one JSON object per line, written by structured loggers.

    {"time": "2026-11-29T07:25:43.583", "rank": 3, "level": "INFO", "message": "layer 3 passed"}
    {"@timestamp": 1795937143.583, "levelname": "ERROR", "global_rank": 1, "msg": "RuntimeError: ..."}
    {"log": "[rank0]: layer 3 passed\\n", "stream": "stdout", "time": "2026-11-29T07:25:43Z"}

Loggers name the same fields differently (python-json-logger, structlog, loguru's
`serialize`, docker's json-file driver), so each field is the first of its known key names
that the object holds. The message becomes the line's message and the other parsers read it
as if it had been printed alone, so an ERROR object's message is an error line like any other
and a docker `log` value keeps its own prefixes for the next round of `parse_line`.

`parse_line` calls `take` only for text that starts with `{`; every other line pays one
character comparison.

An error object printed over several lines, one member a line, is read by its message member
alone (`take_member`): the error a notebook front end copies out of a failed cell, as VS Code's
Jupyter output gives it (`"name": "RuntimeError",` then `"message": "indices should be ...",`
then a `"stack"` string), and the error output of a saved notebook (`"ename"`, `"evalue"`).
The member's string is the line's message, unquoted, so the error reads as if printed alone;
the other members (the name, the stack whose lines follow unquoted) are left as they are.

An ERROR object whose traceback member holds escaped newlines reaches `take` cut at the first
of them (`formats.escaped`), and the members after it are lost with the cut: python-json-logger
writes a logger's `extra` fields after `exc_info`,

    {"asctime": "...", "levelname": "ERROR", "message": "model run failed: ...",
     "exc_info": "Traceback (most recent call last):\n  File ...", "rank": 0, "world_size": 6}

so the writer of such a record (its rank, local rank, pid) is read from the whole physical
line afterwards (`complete_writer`), as ranks sharing one file need it.

A benchmark runner's event stream (milabench's `.data` files) writes each line a child printed
as a record whose `event` names only the kind of record and whose `data` holds the text:

    {"event": "line", "data": ":0:rocdevice.cpp :3586: ... aborting with error : ...\\n", "pipe": "stderr"}

Such a record is read by its `data` string (`_message`); an event whose data is no string
(a structured payload) keeps the event as its message.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from analyzers.core import regex_programs
from analyzers.formats.base import PROGRESS_WORDS, ParsedLine, normal_level
from analyzers.formats.timestamps import parse_time

NAME = "jsonlines"
MESSAGE_KEYS = ("message", "msg", "event", "log", "text")
TIME_KEYS = ("time", "timestamp", "ts", "asctime", "@timestamp", "datetime", "date")
RANK_KEYS = ("rank", "global_rank", "RANK", "rank_id", "global_rank_id")
LOCAL_RANK_KEYS = ("local_rank", "LOCAL_RANK")
LEVEL_KEYS = ("level", "levelname", "severity", "log_level", "loglevel", "lvl")
PID_KEYS = ("pid", "process")
# Epoch numbers by size: seconds now are ~1.8e9; milli-, micro- and nanoseconds follow.
_EPOCH_DIVISORS = ((1e17, 1e9), (1e14, 1e6), (1e11, 1e3), (0.0, 1.0))


def take(line: ParsedLine) -> bool:
    """Read `line.message` as a JSON object with a message; False (line untouched) when it is
    no such object."""
    fields = _object(line.message)
    if fields is None:
        return False
    message = _message(fields)
    if not isinstance(message, str):
        return False
    line.source = NAME
    line.message = event_words(message.rstrip("\n"), fields) + _error_text(fields)
    read_fields(line, fields)
    return True


ERROR_KEYS = ("error", "exception", "err")
# The kind of record an event stream names in `event` when the text sits in `data`.
_RECORD_KIND = regex_programs.compile(r"[a-z]+")


def _message(fields: dict[str, Any]) -> Any:
    """The record's message: its first message key's value, or the `data` text of an event
    record that names only its kind (`{"event": "line", "data": "..."}`)."""
    message = _first(fields, MESSAGE_KEYS)
    data = fields.get("data")
    if (
        isinstance(data, str)
        and message is fields.get("event")
        and isinstance(message, str)
        and _RECORD_KIND.fullmatch(message)
    ):
        return data
    return message


def _error_text(fields: dict[str, Any]) -> str:
    """The exception a record carries in a field of its own (`"event": "model_run_failed",
    "error": "RuntimeError: ..."`), its first line, to follow the message as a logging call
    that formats the exception into it prints it; empty when there is none."""
    error = _first(fields, ERROR_KEYS)
    if not isinstance(error, str) or not error.strip():
        return ""
    return ": " + error.strip().splitlines()[0]


# An event named as an identifier, as structlog advises (`layer_passed`, `model_run_success`),
# its numbers in fields of their own: `{"event": "layer_passed", "layer": 7}`.
_EVENT_NAME = regex_programs.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_PROGRESS_WORD = regex_programs.compile(PROGRESS_WORDS)


# A training step's own line with its number in a field of its own (`{"step": 3, "msg": "step
# done"}`, structlog's `{"event": "step_done", "step": 3}`): read as the printed `step 3 done`.
STEP_KEYS = ("step", "global_step")
_STEP_LINE = regex_programs.compile(
    r"(?P<what>(?:[Tt]rain(?:ing)? )?[Ss]tep) (?P<verb>done|finished|completed?|passed|start(?:ed)?|begin)"
)


def event_words(message: str, fields: dict[str, Any]) -> str:
    """An identifier-named event in words, read like the printed line it stands for: a
    progress event's `layer` field named in it (`layer_passed` with `layer: 7` is `layer 7
    passed`, `norm_passed` with it `layer 7 norm passed`), a step's line its `step` field
    (`step done` with `step: 3` is `step 3 done`). Any other message is kept."""
    if not _EVENT_NAME.fullmatch(message):
        return _step_words(message, fields)
    words = message.split("_")
    layer = _number(fields.get("layer"))
    if layer is None or not _PROGRESS_WORD.fullmatch(words[-1]):
        return _step_words(" ".join(words), fields)
    if words[0] == "layer":
        return " ".join(["layer", str(layer), *words[1:]])
    return " ".join(["layer", str(layer), *words])


def _step_words(message: str, fields: dict[str, Any]) -> str:
    """A bare step line (`step done`, `train step start`) with the record's step number put
    in after its word; any other message as it is."""
    found = _STEP_LINE.fullmatch(message.strip())
    step = _number(_first(fields, STEP_KEYS)) if found is not None else None
    if step is None:
        return message
    return f"{found['what']} {step} {found['verb']}"  # type: ignore[index]


def complete_writer(line: ParsedLine, whole: str) -> None:
    """Fill the rank, local rank and pid a cut object lost from the whole line's object; the
    fields the cut head already gave are kept. Nothing happens when the line is no object
    (one may only open it, or follow a launcher's `[defaultN]:` tag)."""
    if line.rank is not None and line.pid is not None:
        return
    start = whole.find("{")
    if start < 0:
        return
    lead = whole[:start].rstrip()
    if line.source != NAME and lead and not lead.endswith("]:"):
        return  # an object inside a message, not the line's own record (a loguru text's
        # header is peeled after the object's, so the object's own line may read otherwise)
    try:
        fields = json.loads(whole[start:])
    except ValueError:
        return
    if not isinstance(fields, dict):
        return
    fields = _with_loguru_record(fields)
    if line.rank is None:
        line.rank = _number(_first(fields, RANK_KEYS))
    if line.local_rank is None:
        line.local_rank = _number(_first(fields, LOCAL_RANK_KEYS))
    if line.pid is None:
        line.pid = _number(_first(fields, PID_KEYS)) or None


# One member of a pretty-printed object on its own line: `"message": "...",` (the comma
# optional on the last member). Only the keys error outputs use for the error's text.
_MEMBER = regex_programs.compile(r'\s*"(?:message|evalue)"\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def take_member(line: ParsedLine) -> bool:
    """Read `line.message` as the message member of a multi-line error object; False (line
    untouched) when it is no such member."""
    match = _MEMBER.match(line.message)
    if match is None:
        return False
    try:
        message = json.loads(match.group(1))
    except ValueError:
        return False
    if not isinstance(message, str) or not message.strip():
        return False
    line.source = NAME
    line.message = message.strip()
    return True


def _object(text: str) -> dict[str, Any] | None:
    """The JSON object on the line. A message with escaped newlines reaches the parser cut at
    the first one (`formats.escaped`), so an object cut inside its last string is closed."""
    for candidate in (text, text.rstrip() + '"}'):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        return value if isinstance(value, dict) else None
    return None


def read_fields(line: ParsedLine, fields: dict[str, Any]) -> None:
    """The level, time, rank, local rank and pid a structured record's fields give."""
    fields = _with_loguru_record(fields)
    level = _first(fields, LEVEL_KEYS)
    if isinstance(level, str):
        line.level = normal_level(level) or line.level
    line.time = _time(_first(fields, TIME_KEYS)) or line.time
    rank = _number(_first(fields, RANK_KEYS))
    if rank is not None:
        line.rank = rank
    local_rank = _number(_first(fields, LOCAL_RANK_KEYS))
    if local_rank is not None:
        line.local_rank = local_rank
    pid = _number(_first(fields, PID_KEYS))
    if pid:
        line.pid = pid


def _with_loguru_record(fields: dict[str, Any]) -> dict[str, Any]:
    """loguru's `serialize=True` nests the writer under `record`: the values bound with
    `logger.bind(rank=3)` in `record.extra`, the pid in `record.process.id`
    (`{"text": "... | INFO | ... - layer 0 passed\\n", "record": {"extra": {"rank": 3}, ...}}`).
    They fill the keys the object's top level lacks."""
    record = fields.get("record")
    if not isinstance(record, dict):
        return fields
    merged = dict(fields)
    extra = record.get("extra")
    if isinstance(extra, dict):
        for key in (*RANK_KEYS, *LOCAL_RANK_KEYS):
            if key in extra:
                merged.setdefault(key, extra[key])
    process = record.get("process")
    if isinstance(process, dict):
        merged.setdefault("pid", process.get("id"))
    return merged


def _first(fields: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = fields.get(key)
        if value is not None:
            return value
    return None


def _number(value: Any) -> int | None:
    """A non-negative integer field, also when the logger wrote it as a string."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _time(value: Any) -> Any:
    if isinstance(value, str):
        return _text_time(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        divisor = next(div for bound, div in _EPOCH_DIVISORS if value >= bound)
        try:
            return datetime.fromtimestamp(value / divisor, UTC).replace(tzinfo=None)
        except (OverflowError, OSError, ValueError):
            return None
    return None


def _text_time(value: str) -> Any:
    """ISO times (most JSON loggers) read in C; anything else by `parse_time`. The zone is
    dropped as everywhere else: times stay the wall clock the line shows."""
    if len(value) > 10:
        try:
            return datetime.fromisoformat(value).replace(tzinfo=None)
        except ValueError:
            pass
    return parse_time(value)
