"""A job log that stops on a line announcing work it then never reports on.

Scripts announce a step before they take it: `warm up.......`, `Loading model...`,
`Generating…`. When a log holds no error line and its last line is such an announcement, the
job was inside that step when the log stopped: a success line printed earlier (one request's
`Generation completed successfully.`) was not the job's end. Announcements of the end itself
(`Shutting down...`, `Cleaning up...`) are no pending work. Like `formats.refusal`, this looks
at the last few lines of a file once, after the scan (`pending_words` and `closing_words` in
knowledge/prefilter.yaml).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.formats.base import ParsedLine, last_with_text
from analyzers.formats.severity import Prefilter


def pending_at_end(
    tail: Sequence[tuple[int, ParsedLine]], prefilter: Prefilter
) -> tuple[int, ParsedLine] | None:
    """The (line number, line) that closes `tail` when it announces pending work, else None.
    Blank lines at the end are skipped; the last line with text decides."""
    pending, closing = prefilter.pending_words, prefilter.closing_words
    last = last_with_text(tail) if pending is not None else None
    if last is None:
        return None
    text = last[1].message.strip()
    return last if pending.search(text) and not (closing and closing.search(text)) else None
