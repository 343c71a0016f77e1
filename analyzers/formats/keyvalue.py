"""Key=value lines with an `event` key: structlog's `KeyValueRenderer`.

    timestamp='2026-12-05T07:06:56.172795Z' level='info' event='layer 0 passed' rank=0
    event='layer 0 passed' level='info' rank=0 timestamp='2026-12-05T07:06:56.172795Z'

Every pair's value is its Python repr (strings in quotes, escapes inside), the keys in any
order (`key_order=` first, the rest as the event dict holds them, or all sorted). The `event`
value is the line's message, so an error event reads as if printed alone, and an event named as
an identifier with its layer in a pair (`event=norm_done layer=1`) reads as the printed line it
stands for (`layer 1 norm done`, as `formats.jsonlines.event_words` reads a JSON record); `level`, the time
and the writer's rank and pid are read from their pairs under the key names JSON loggers use
(`formats.jsonlines`). An exception rendered by `format_exc_info` is one more pair,
`exception='Traceback (most recent call last):\\n  File ...'`, whose escaped newlines cut the
line (`formats.escaped`): the last value may end without its closing quote.

logfmt (`ts=... level=info msg="..."`) has no `event` key and stays `formats.pylogging`'s.
`parse_line` calls `take` only for text holding `event=`.
"""

from __future__ import annotations

import ast

from analyzers.core import regex_programs
from analyzers.formats import jsonlines
from analyzers.formats.base import ParsedLine

NAME = "keyvalue"
_VALUE = r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s'"]\S*"""
_CUT = r"""'(?:[^'\\]|\\.)*|"(?:[^"\\]|\\.)*"""  # a last value cut before its closing quote
_PAIR = regex_programs.compile(r"([A-Za-z_][\w.]*)=(" + _VALUE + r"|" + _CUT + r"$)")
_LINE = regex_programs.compile(
    r"[A-Za-z_][\w.]*=(?:" + _VALUE + r")(?: [A-Za-z_][\w.]*=(?:" + _VALUE + r"))*"
    r"(?: [A-Za-z_][\w.]*=(?:" + _CUT + r"))?\s*$"
)


def take(line: ParsedLine) -> bool:
    """Read `line.message` as structlog key=value pairs with an event; False (line
    untouched) when it is no such line."""
    text = line.message
    if not _LINE.match(text):
        return False
    fields = {key: _unrepr(value) for key, value in _PAIR.findall(text)}
    event = fields.get("event")
    if not isinstance(event, str) or len(fields) < 2:
        return False
    line.source = NAME
    # an identifier-named event (`event=norm_done layer=1`) reads as the JSON record's does
    line.message = jsonlines.event_words(event.rstrip("\n"), fields)
    jsonlines.read_fields(line, fields)
    return True


def _unrepr(value: str) -> object:
    if value[:1] in "'\"":
        if len(value) < 2 or value[-1] != value[0]:
            return value[1:]  # cut before its closing quote: kept as it stands
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value[1:-1]
    if value.isdigit():
        return int(value)
    return value
