"""rich's logging handler (`rich.logging.RichHandler`) writing a job's console log.

    [12/04/26 15:45:12] INFO     [rank1] init process group: backend=gloo rank=1     infer.py:84
                                 world_size=4 master=localhost:38455 attempt=0
                        INFO     [rank1]   norm passed                               infer.py:84
                        ERROR    model run failed: [enforce fail at alloc_cpu.cpp:127] err   infer.py:85

The time column is `[%x %X]` (month/day/two-digit year in the C locale) by default; rich's
own logging example sets `datefmt="[%X]"`, the time alone, which gives no date and so no
record time. The column stays blank, as wide as the time it leaves out (20 or 11
characters), while the second does not change:

    [18:45:53] INFO     [rank0] load weights passed                                 infer.py:52
               INFO     [rank0]   norm passed                                       infer.py:52

The level is padded to eight characters and one blank separates it from the message, so a
message the job indents itself (`log.info("  norm passed")`) keeps its own blanks after that
column:

                        INFO       norm passed                                       infer.py:146

The record's source file and line sit right-aligned in a column of their own at the end of a
record's first line. A long message wraps onto lines whose time and level columns are blank; such
a line parses as a plain line, and the scanner joins it back to its record
(`formats.wrapped`).
"""

from __future__ import annotations

import re

from analyzers.formats.base import header

NAME = "rich"

HEADERS = (
    header(
        NAME,
        r"(?:\[(?P<ts>\d\d/\d\d/\d\d \d\d:\d\d:\d\d)\] | {20}|\[\d\d:\d\d:\d\d\] | {11})"
        # the level column: the name left-aligned in eight characters, then one blank
        r"(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL)"
        r"(?:(?<=INFO) {5}|(?<=DEBUG|ERROR) {4}|(?<=WARNING) {2}|(?<=CRITICAL) )",
    ),
)
# Tried only where a run of blanks starts: from inside a run, the match from its start is the
# same one, and trying every blank of a long run made a line of blanks cost its square.
_PATH_COLUMN = re.compile(r"(?<!\s)\s+[\w.-]+\.py:\d+$")
_DATE = re.compile(r"(\d\d)/(\d\d)/(\d\d) ")


def drop_path_column(message: str) -> str:
    """The message without the right-aligned `file.py:line` column."""
    return _PATH_COLUMN.sub("", message)


def iso_time(ts: str) -> str:
    """`12/04/26 15:45:12` as `2026-12-04 15:45:12`."""
    return _DATE.sub(lambda m: f"20{m.group(3)}-{m.group(1)}-{m.group(2)} ", ts, count=1)
