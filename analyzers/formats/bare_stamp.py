"""A date and time opening a line that no header read: a launch script's or a job's own print.

    2026-12-07 23:33:10 rank 0 (pid 21307) still running after 16s, sending SIGKILL
    2026-12-07 23:33:11 rank 5 (pid 21312) exited with code -9

A shell script that stamps what it says with `date '+%F %T'` writes whole seconds and no level,
so none of the logging headers (`formats.logging_headers`), which all want a level or a rank
label after the time, takes the line; its records of how each rank ended then had no time, and
nothing could say whether a rank was still advancing when it was stopped. The time is the
line's; the message keeps it, so the line's words read as they did before its time was known
(a signature's example may quote the stamp). Only a full date and time opening the line with words after it
counts: a time inside the words, or a date alone, is no stamp. A stamp of whole seconds may
stand up to a second before the moment it records, which the clocks' tolerance covers where
times are compared (`causal.chain.CLOCK_TOLERANCE_S`).
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine
from analyzers.formats.timestamps import parse_time

_STAMP = regex_programs.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?= +\S)")


def take(line: ParsedLine) -> bool:
    """Read the stamp opening the line's message into its time; False when there is none."""
    found = _STAMP.match(line.message)
    if found is None:
        return False
    moment = parse_time(found.group())
    if moment is None:
        return False
    line.time = moment
    return True
