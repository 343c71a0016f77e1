"""Error blocks folded into one physical line with escaped newlines.

Servers that report a worker's failure in a JSON body or a Python repr put the whole torch_npu
exception on one line, its lines joined by a literal backslash-n:

    AssertionError: {"object":"error","message":"Internal server error: copy_d2d:...:88 NPU
    function error: call aclnnInplaceCopy failed, error code is 161002\\n[ERROR] 2026-01-04-
    09:20:11 (PID:812, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\\n[PID: 812]
    2026-01-04-09:20:11.204.913 AclNN_Parameter_Error(EZ1001): The input tensor ...\\n", ...}

(SGLang and vLLM HTTP error bodies, `RuntimeError('...\\n...')` reprs in vLLM's engine log,
docker compose lines). Each escaped line is a line of its own for the parsers; it keeps the
writer (rank, pid, prefix key) of the physical line it came in.

A compiler's exception that carries a kernel's source as its first argument is the exception
to this: Triton's `CompilationError(src, node, msg)` and its subclasses, logged as a repr by a
library that caught one (`UnsupportedLanguageConstruct('def k(x):\\n    ...', <ast.BoolOp
object at 0x...>, '... are not supported ...')`). Its escaped newlines are the source's own,
not lines of a log, and the reason is the argument after them, so the line stays whole.

A chat server that caught a worker's exception may answer with a fixed sentence of its own and
the exception's text after it in parentheses (`"**...PAGE.**\\n\\n(CUDA out of memory. ...)"`).
A piece whose opening parenthesis closes just before the enclosing quote (or the end of the
piece) is that wrapped text and loses the pair, so it reads like the raised line; a writer's
prefix (`(Worker pid=7) INFO ...`) closes before more text and stays.

A text escaped twice writes its newlines as `\\\\n`: Ray's event logs (`logs/events/event_GCS.log`)
hold one JSON object a line whose message was escaped once more before it was written,

    {"label":"RAY_NODE_REMOVED","message":"... This can happen when a \\t(1) raylet crashes
    unexpectedly (OOM, etc.) \\\\n\\t(2) raylet has lagging heartbeats ...","severity":"ERROR",...}

The split falls on the second backslash, so the piece before it ends in the first, which
escaped the second; that lone backslash is dropped, or the object cut there could not be
closed and read (`formats.jsonlines`). A piece ending in an escaped backslash (two of them)
keeps both.
"""

from __future__ import annotations

import re

from analyzers.formats.base import ParsedLine

ESCAPED_NEWLINE = b"\\n"
MAX_PIECES = 400  # a megabyte-long body is cut here; its head holds the error
_CLOSERS = (b'",', b'"}', b"')", b"',")
# An escaped piece that is wholly one parenthesised text, up to the quote that closes the body.
_WRAPPED = re.compile(rb"""\(((?:[^()]|\([^()]*\))+)\)(?=["']|\s*$)""")
# An exception's repr whose first argument is a function's source (decorators may come first).
_SOURCE_REPR = re.compile(rb"""\b[A-Z]\w*\((?:'|")(?:@[\w.]+(?:\([^)\n]*\))?\\n)*def \w+\(""")


def split_escaped(raw: bytes) -> list[bytes]:
    """The physical line's escaped lines (the line itself when it has none); empty pieces
    and JSON quoting are dropped."""
    if ESCAPED_NEWLINE not in raw or _SOURCE_REPR.search(raw):
        return [raw]
    head, *rest = raw.split(ESCAPED_NEWLINE, MAX_PIECES)
    pieces = [head, *rest[: MAX_PIECES - 1]]
    pieces = [_drop_escaping_backslash(p) for p in pieces[:-1]] + pieces[-1:]
    return [pieces[0], *(_unquote(piece) for piece in pieces[1:] if _is_line(piece))]


def _drop_escaping_backslash(piece: bytes) -> bytes:
    """A piece cut before a twice-escaped newline ends in the backslash that escaped the
    newline's own backslash (an odd run of them); drop that one."""
    run = len(piece) - len(piece.rstrip(b"\\"))
    return piece[:-1] if run % 2 else piece


def _is_line(piece: bytes) -> bool:
    """Not empty, and not the rest of the enclosing JSON object or repr (`","code":500}`)."""
    return bool(piece.strip()) and not piece.startswith(_CLOSERS)


def _unquote(piece: bytes) -> bytes:
    return _unwrap(piece.replace(b'\\"', b'"').replace(b"\\t", b"    "))


def _unwrap(piece: bytes) -> bytes:
    """The text of a piece that a server set in parentheses, without them."""
    wrapped = _WRAPPED.match(piece)
    return wrapped.group(1) + piece[wrapped.end() :] if wrapped else piece


def inherit_writer(piece: ParsedLine, outer: ParsedLine, written_with: bool = False) -> ParsedLine:
    """An escaped line was written by the process whose line carries it. One escaped into
    the record's own fields (`written_with`: a structured logger's traceback member, `"exc":
    "Traceback ...\\n  File ...\\nRuntimeError: ..."`) was also written at the record's time,
    so a piece with no time of its own takes the record's: the exception is then ordered
    against the other ranks' timed lines instead of after all of them."""
    if written_with and piece.time is None and not outer.collected:
        piece.time = outer.time
    if piece.rank is None:
        piece.rank = outer.rank
    if piece.local_rank is None:
        piece.local_rank = outer.local_rank
    if piece.pid is None:
        piece.pid = outer.pid
    piece.stream_key = outer.stream_key + piece.stream_key
    for name, value in outer.tags.items():
        piece.tags.setdefault(name, value)
    return piece
