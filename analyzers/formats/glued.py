"""Lines of ranks that share one stdout and lose their line breaks to each other.

Ranks started without a launcher that separates their streams (one process per rank writing
to one file or pipe, torchrun without `--redirects`) write to the same file. A job that
prints its own rank label before each message (`rank 3: ` or `[rank 3] `) says who wrote
each line, but `print` under an unbuffered stream writes the text and its newline as two
writes, and another rank's text can land between them:

    rank 1:  norm passedrank 0:  norm passedrank 2:  norm passed
    <blank lines: the newlines that came after>

Read whole, that line is one rank's and no checkpoint. A line that opens with such a label
and shows the same label shape again glued to the text before it (no space between) is cut
before each repeat, and each piece is read as a line of its own with its own rank. A label
after a space (`rank 0: waiting for kv from rank 3: ...`) is part of the message and is no
cut; neither is a label of another shape than the one that opens the line. A collector's
prefix in front of the shared stream (`formats.outer_prefix`: a collector's time, a journal,
`srun --label`, ...) stays in front of the line's first piece and is put back in front of each
later one: the collector wrote it for the whole physical line.
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats.flattened import MAX_PIECES
from analyzers.formats.outer_prefix import AGENT_TAG_BYTES, OUTER

# `rank 3: `, `rank3: `, `[rank 3] `, `[Rank 3] ` -- the label a job prints before its lines
_LABEL = rb"\[[Rr]ank ?\d{1,6}\] |[Rr]ank ?\d{1,6}: "
_OPENING = regex_programs.compile(b"(" + OUTER + rb")[ \t]*(" + _LABEL + rb")")
_INNER = regex_programs.compile(rb"(?<=\S)(?:" + _LABEL + rb")")
_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")


def _shape(label: bytes) -> bytes:
    return re.sub(rb"0+", b"0", label.translate(_DIGITS))


# torchrun's `--tee` console: the agent copies each child's output after a `[defaultN]:` tag
# (`[<role>N]:` when the launch named a role: `formats.outer_prefix.AGENT_TAG`),
# a line at a time. A child whose last write had no newline (a progress bar closing itself with
# a carriage return and a cursor-up escape, a process killed mid-print) leaves that piece open,
# and the next child's copy is written onto it:
#     [default0]:<spaces>\x1b[A[default2]:  attention passed
# Another rank's tag of the same role inside such a line starts that rank's line (one launch
# names one role; a bracketed name in a child's own text is not its agent's tag).
_AGENT_OPENING = regex_programs.compile(b"(" + OUTER + rb")(" + AGENT_TAG_BYTES + rb")")
_AGENT_INNER = regex_programs.compile(AGENT_TAG_BYTES)


def _role(tag: bytes) -> bytes:
    """`[trainer12]:` -> `trainer`."""
    return tag[1:-2].rstrip(b"0123456789")


def _split_agent_copies(raw: bytes) -> list[bytes] | None:
    opening = _AGENT_OPENING.match(raw)
    if opening is None:
        return None
    outer, first = opening.group(1), opening.group(2)
    role = _role(first)
    cuts = [
        found.start()
        for found in _AGENT_INNER.finditer(raw, opening.end())
        if found.group(0) != first and _role(found.group(0)) == role
    ]
    if not cuts:
        return None
    pieces, begin = [], 0
    for cut in [*cuts[: MAX_PIECES - 1], len(raw)]:
        piece = raw[begin:cut].rstrip()
        if piece.strip():
            pieces.append(piece if begin == 0 else outer + piece)
        begin = cut
    return pieces


def split_glued(raw: bytes) -> list[bytes]:
    """The lines glued into `raw` (the line itself when nothing was glued to it)."""
    if raw.count(b"]:") >= 2:  # two agent tags at least
        copies = _split_agent_copies(raw)
        if copies is not None:
            return copies
    if raw.count(b"ank") < 2:  # two labels at least, each with `rank`/`Rank`
        return [raw]
    opening = _OPENING.match(raw)
    if opening is None:
        return [raw]
    outer, shape = opening.group(1), _shape(opening.group(2))
    cuts = [
        found.start()
        for found in _INNER.finditer(raw, opening.end())
        if _shape(found.group(0)) == shape
    ]
    if not cuts:
        return [raw]
    pieces, begin = [], 0
    for cut in [*cuts[: MAX_PIECES - 1], len(raw)]:
        piece = raw[begin:cut].rstrip()
        if piece.strip():
            pieces.append(piece if begin == 0 else outer + piece)
        begin = cut
    return pieces or [raw]
