"""A log pasted through a page or an editor that changed every line the same way.

Two such changes break the structure the block parsers follow, while every line keeps its
words:

- the whole paste indented alike (a Markdown code block written with four spaces, a forum
  editor's quote, an e-mail reply): a traceback's exception line then sits as deep as the
  frames' source lines, and a CANN block's headline no longer starts its line;

      ····Traceback (most recent call last):
      ······File "/workspace/train.py", line 88, in <module>
      ········loss = model(batch)
      ····RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB

- every line followed by an empty one (text copied out of a rendered page): a blank line
  ends a traceback or a device block after its first line.

      Traceback (most recent call last):

        File "/workspace/train.py", line 88, in <module>

      RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB

The file's first lines tell which it is; the indent all of them share is taken off each line
that has it, and in a double-spaced paste the empty lines are not handed to the block parsers.
A log written by a program does neither: its first lines are never all indented, and it does
not follow each line with an empty one.

A log collector writes its own prefix before each line it collected (docker compose's
`trainer-1  | `, a kubectl or GitHub Actions time stamp, journald's `<time> <host>
<unit>[pid]: `, srun's `0: `, pdsh's `<host>: `), and a terminal's colour code may open only
some lines; the indent then sits behind that prefix, where the bytes of the block cannot show
it:

    trainer-1  |     RuntimeError:
    trainer-1  |     The detected CUDA version (12.2) mismatches the version that was ...

What is read must not depend on the collector, so when the lines share no indent as bytes, the
indent their messages (the text after the prefix `formats.lines` peels) share is learned too
and taken off each message read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, islice, tee

from analyzers.formats.base import ParsedLine
from analyzers.formats.lines import parse_line
from analyzers.ingest.textio import clean_line

PROBE_LINES = 200  # first lines of the file the layout is read from
PROBE_BYTES = 32 * 1024  # ... within its first bytes
MIN_LINES = 3  # fewer non-empty lines than this say nothing about a layout
MIN_INDENT = 2  # spaces; a single tab counts too


@dataclass(frozen=True, slots=True)
class PasteLayout:
    indent: bytes = b""  # shared by every non-empty line of the head
    double_spaced: bool = False
    message_indent: str = ""  # shared by every message behind a collector's prefix

    def dedent_message(self, line: ParsedLine) -> ParsedLine:
        """The line with the indent its message shares behind a collector's prefix taken off
        (the line's text, which is cited, keeps it)."""
        if self.message_indent and line.message.startswith(self.message_indent):
            line.message = line.message[len(self.message_indent) :]
        return line

    def dedent(self, block: bytes) -> bytes:
        """The block with the shared indent taken off every line that starts with it (line
        ends stay where they are, so line numbers do not move)."""
        if not self.indent:
            return block
        if block.startswith(self.indent):
            block = block[len(self.indent) :]
        return block.replace(b"\n" + self.indent, b"\n")


PLAIN = PasteLayout()


def learn_paste_layout(head: bytes) -> PasteLayout:
    """The layout of a file, from its first block."""
    probe = head[:PROBE_BYTES]
    lines = probe.split(b"\n", PROBE_LINES)[:PROBE_LINES]
    if len(probe) < len(head) or len(lines) == PROBE_LINES or not lines[-1]:
        lines.pop()  # a line the probe cut, or the block's final newline
    while lines and not lines[-1].strip():
        lines.pop()
    # read only as far as a reader asks: a program's log settles both indents at its first
    # lines, and every file of a job of a thousand ranks is probed
    filled = (line.rstrip(b"\r") for line in lines if line.strip())
    first = list(islice(filled, MIN_LINES))
    if not first:
        return PLAIN
    if len(first) < MIN_LINES:
        return _short_paste(first, whole=len(head) < PROBE_BYTES)
    for_indent, for_message = tee(chain(first, filled))
    indent = _shared_indent(for_indent)
    return PasteLayout(
        indent=indent,
        double_spaced=_double_spaced(lines),
        message_indent="" if indent else _shared_message_indent(for_message),
    )


def _short_paste(filled: list[bytes], whole: bool) -> PasteLayout:
    """A file of one or two lines in all, indented alike, is a snippet pasted into an
    indented block: a program writes its first line at the margin. Spacing says nothing
    about so few lines, and a longer file's head must show its layout over more lines."""
    if not whole:
        return PLAIN
    indent = _shared_indent(filled)
    return PasteLayout(
        indent=indent, message_indent="" if indent else _shared_message_indent(filled)
    )


def _shared_indent(lines: Iterable[bytes]) -> bytes:
    rest = iter(lines)
    first = next(rest)
    indent = first[: len(first) - len(first.lstrip(b" \t"))]
    for line in rest:
        while indent and not line.startswith(indent):
            indent = indent[:-1]
        if not indent:
            return b""
    return indent if indent == b"\t" or len(indent) >= MIN_INDENT else b""


def _shared_message_indent(lines: Iterable[bytes]) -> str:
    """The indent every line's message shares behind its collector prefix or colour code.
    Lines are parsed only while some indent is left: a program's log gives up at its first
    line, whose message starts at the margin. A line the collector wrote empty says nothing."""
    indent: str | None = None
    for line in lines:
        message = parse_line(clean_line(line)).message
        if not message.strip():
            continue
        if indent is None:
            indent = message[: len(message) - len(message.lstrip(" \t"))]
        while indent and not message.startswith(indent):
            indent = indent[:-1]
        if not (indent == "\t" or len(indent) >= MIN_INDENT):
            return ""
    return indent or ""


def _double_spaced(lines: list[bytes]) -> bool:
    """No two non-empty lines next to each other (a paste's own empty lines stay runs).
    Read from the top until two such lines meet: a program's log settles it at its second
    line, without a look at the other lines of the probe."""
    previous = False
    for line in lines:
        filled = bool(line.strip())
        if previous and filled:
            return False
        previous = filled
    return True
