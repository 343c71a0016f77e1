"""A log that holds no error line at all may still end on a plain-words refusal.

Config checks in model code often print (or raise through a wrapper that prints only the
message) a sentence with no error word: "`rope_scaling` must be a dictionary with two fields,
..., got {...}". The scanner's prefilter never looks at such a line, so the job would read as
a quiet hang. After the scan, only for a file that produced no error event, its last few lines
are tested against `refusal_words` (knowledge/prefilter.yaml); the last one that matches is
the job's error. This costs nothing per line of a big log: it looks at a handful of lines once.

A line that reads as Python source is code, not a sentence a program printed: a traceback the
paste cut before its exception line ends on the statement that raised, and when that statement
raises with its message in such words (`raise NotImplementedError("X is not supported.")`) the
sentence is only quoted in the code. It is left to the cut-traceback reader
(`formats.cut_traceback`), which cites the frame with its statement.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.formats.base import ParsedLine
from analyzers.formats.severity import Prefilter, echoed_command, reads_as_source


def last_refusal(
    tail: Sequence[tuple[int, ParsedLine]], prefilter: Prefilter
) -> tuple[int, ParsedLine] | None:
    """The last (line number, line) of `tail` that reads as a refusal, if any. A line with a
    level of its own (an INFO progress line), a warning word, the look of Python source or of
    a shell's echo of a command is never one."""
    pattern = prefilter.refusal_words
    if pattern is None:
        return None
    for lineno, line in reversed(tail):
        text = line.message
        if line.level or not text.strip() or prefilter.warning_words.search(text):
            continue
        if reads_as_source(text):
            continue  # a statement quoted in a traceback, not a printed refusal
        if echoed_command(text, prefilter):
            continue  # a command a traced shell was about to run
        if not prefilter.benign.search(text) and pattern.search(text):
            return lineno, line
    return None
