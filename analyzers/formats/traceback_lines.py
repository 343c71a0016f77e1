"""The shapes of a Python traceback's own lines: its header, the sentence that chains one
traceback to the next, and the exception line that ends it.

    Traceback (most recent call last):
      File "/workspace/train.py", line 88, in step
        loss.backward()
    RuntimeError: CUDA error: an illegal memory access was encountered

    The above exception was the direct cause of the following exception:

The traceback reader (`formats.traceback`) and the reader of an exception's message over the
lines below it (`formats.exception_message`) both ask these, so a line is a header, a chain or
an exception for both alike.
"""

from __future__ import annotations

import keyword

from analyzers.core import regex_programs

# torch's distributed checkpoint quotes each failed rank's traceback inside the one
# `CheckpointException ranks:dict_keys([...])` every rank raises, its header ending `(RANK n)`:
# the exception under that header is rank n's, whichever rank's log quotes it
HEADER = regex_programs.compile(
    r"\s*Traceback \(most recent call last\):(?:\s*\(RANK (?P<rank>\d+)\))?\s*$"
)
CHAIN = regex_programs.compile(
    r"\s*(?:During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception):\s*$"
)
EXCEPTION = regex_programs.compile(
    r"(?P<type>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::(?:\s(?P<text>.*))?)?\s*$"
)
EXCEPTION_NAME = regex_programs.compile(
    r"(?:Error|Exception|Interrupt|Exit|Warning|Failure|Fault|Unsupported|StopIteration)$"
)
# the `^^^^` or `~~~~` markers Python prints under the part of a source line that raised
CARETS = regex_programs.compile(r"\s*[\^~]+\s*$")


def ends_traceback(message: str) -> bool:
    """An exception line: `Type: text`, or a bare class name. A bare lower-case word is the
    tail of a frame line a terminal wrapped (`...in finish_grad` / `sync`), not a class. A
    Python keyword is never a class: `lambda: run_node(...)` or `else: ...` is a frame's source
    line in a paste that lost the traceback's indentation (every line at one depth after a
    `[rank0]: ` prefix), not the exception that ends it."""
    found = EXCEPTION.match(message)
    if not found:
        return False
    name = found.group("type").rsplit(".", 1)[-1]
    if keyword.iskeyword(found.group("type").split(".", 1)[0]):
        return False
    return ":" in message or not name[0].islower() or bool(EXCEPTION_NAME.search(name))


def stops_at_type(message: str) -> bool:
    """`RuntimeError:` with nothing after the colon: the exception's text is on the next lines."""
    found = EXCEPTION.match(message)
    return bool(found) and message.endswith(":") and not (found.group("text") or "").strip()


def lead(message: str) -> int:
    """Leading blanks of a line (a tab counts as one): the traceback's own indentation."""
    return len(message) - len(message.lstrip(" \t"))
