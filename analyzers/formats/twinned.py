"""An exception line that two ranks sharing one stdout printed at the same moment.

Python prints a traceback's last line in pieces (the exception's type, then `: `, then the
message), and two ranks that fail the same way at the same time and write to the same stream
(a launcher without `--redirects`, accelerate's multi-GPU launch on one console) print those
pieces in turn. The line that reaches the log holds the type twice, the separator twice and
the two messages one after the other:

    AttributeErrorAttributeError: : 'Wrapper' object has no attribute 'head''Wrapper' object has no attribute 'head'

Read whole, no rule knows it (`AttributeErrorAttributeError` is no exception type). A line
that opens with a type name written twice and `: : ` after it is put back together: when the
rest is one message written twice it becomes two lines, `<Type>: <message>` each; when the
two messages differ (the ranks named different devices or sizes) there is no telling where the
first one ends, and the rest is kept whole behind one `<Type>: `. A collector's prefix in front
of the shared stream (`formats.outer_prefix`) stays in front of each line. A type written once
(`RuntimeError: : empty message`) or a name repeated inside a message is no such line.
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs
from analyzers.formats.outer_prefix import OUTER

# `AttributeErrorAttributeError: : ` or `torch.OutOfMemoryErrortorch.OutOfMemoryError: : `
_TWINNED = regex_programs.compile(
    b"(?P<lead>"
    + OUTER
    + rb"[ \t]*)(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt))"
    + rb"(?P=type): : (?P<rest>.*)$",
    re.DOTALL,
)


def split_twinned(raw: bytes) -> list[bytes]:
    """The exception lines two ranks wrote into `raw` at once (the line itself otherwise)."""
    if b": : " not in raw:
        return [raw]
    found = _TWINNED.match(raw)
    if found is None:
        return [raw]
    head = found.group("lead") + found.group("type") + b": "
    rest = found.group("rest").rstrip()
    half = len(rest) // 2
    if rest and len(rest) % 2 == 0 and rest[:half] == rest[half:]:
        return [head + rest[:half], head + rest[half:]]
    return [head + rest]
