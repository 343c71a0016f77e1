"""Rules that hold only where a line stands: raised in a given library (`raised_in`), or with
no frame kept (`unframed`), logged at given levels (`levels`), or announced by an earlier line
of the same file (`needs_earlier`).

A line's matches are read from its words alone (`analyzers.classify.line_matches`); these
conditions need the file around it, so they drop matches afterwards and the tier follows::

    ('Connection aborted.', ConnectionResetError(104, ...))   # a hub client's only under its frames
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from analyzers.classify.matches import Classified
from analyzers.classify.signature import NO_LEVEL, Signature
from analyzers.classify.tiers import line_tier


def keep_rules_raised_here(item: Classified, frames: Sequence[str]) -> None:
    """A rule that holds only where the line was raised (`raised_in`: a model hub's client
    above the HTTP library that lost its connection) is dropped from a line whose traceback
    frames do not name that place: `('Connection aborted.', ConnectionResetError(104, ...))`
    from a collective's or a local server's socket is not a download host's. A rule that holds
    only where no frame was kept (`unframed`: the HTTP client's own exception pasted alone) is
    dropped from a line whose traceback names the packages that raised it."""
    _keep_matches(
        item,
        lambda signature: (
            (
                signature.raised_in is None
                or any(signature.raised_in.search(frame) for frame in frames)
            )
            and not (signature.unframed and frames)
        ),
    )


def keep_rules_of_its_level(item: Classified, level: str | None) -> None:
    """A rule that holds only at some levels (`levels`: a job's own words that it is exiting,
    logged as its error) is dropped from a line its writer logged at another level or with
    none: the same words at INFO are a rank reporting its way out. `NONE` among them keeps the
    rule on a line with no level field (Python's bare print of a `sys.exit` message)."""
    _keep_matches(
        item,
        lambda signature: (
            not signature.levels
            or level in signature.levels
            or (not level and NO_LEVEL in signature.levels)
        ),
    )


def keep_rules_announced_earlier(item: Classified, seen: set[str]) -> None:
    """A rule that reads a line only after its writer announced what the line ends
    (`needs_earlier`) is dropped from a line with no such announcement above it in the file:
    vLLM's engine raises a bare `TimeoutError` when its wait on the workers reaches its
    deadline, after logging once a minute that it found no free broadcast block; a bare
    `TimeoutError` with no such line before it (a socket helper's, a client's) says nothing of
    that wait and stays an unrecognised exception."""
    _keep_matches(
        item,
        lambda signature: (
            not signature.needs_earlier or bool(seen.intersection(signature.needs_earlier))
        ),
    )


def _keep_matches(item: Classified, holds: Callable[[Signature], bool]) -> None:
    """Drop the matches of rules that do not hold for this line where it stands; the line's
    tier follows from the matches left."""
    kept = tuple(match for match in item.matches if holds(match.signature))
    if len(kept) != len(item.matches):
        message = item.event.message or item.event.text
        item.matches, item.tier = kept, line_tier(item.event, kept, message)
