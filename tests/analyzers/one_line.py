"""One error line as the scanner hands it to the classifier, for tests that read a single line
without scanning a file: the message after its prefixes, with the codes it names.

    >>> event("aclnnQuantMatmulWeightNz failed, error code is 161002").codes
    ('161002',)
"""

from __future__ import annotations

from analyzers.core.types import Event, EventKind
from analyzers.formats.codes import extract_codes


def event(message: str, kind: EventKind = EventKind.ERROR, source: str | None = None) -> Event:
    """An event as the scanner makes it: the message after prefixes, the codes in it."""
    return Event(
        file="job/log_0.log",
        line=1,
        text=message,
        kind=kind,
        message=message,
        source=source,
        codes=extract_codes(message),
    )
