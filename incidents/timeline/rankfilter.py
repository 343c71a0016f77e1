"""The rank filter people type for big jobs: `0-7,12` means ranks 0 to 7 and rank 12."""

from __future__ import annotations

import re

from django.utils.translation import gettext, ngettext

# A filter may name at most this many ranks: far above any real job, low enough that a
# typo such as `0-99999999` cannot make the server build a huge set.
MAX_RANKS = 65_536

# At most 18 digits a number: Python refuses to convert more than 4,300 (its own message), and
# no job has a rank that long. Any script's digits count, as `int` reads them (full-width `３`).
_PART = re.compile(r"^(\d{1,18})(?:\s*-\s*(\d{1,18}))?$")


class RankFilterError(ValueError):
    """The filter text is malformed; str(error) tells the user what to fix."""


def parse_rank_filter(text: str | None) -> frozenset[int] | None:
    """Parse `0-7,12` into {0..7, 12}. Blank text means no filter (None)."""
    if text is None or not text.strip():
        return None
    ranks: set[int] = set()
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            message = gettext("empty item in rank filter %(filter)r; write e.g. 0-7,12")
            raise RankFilterError(message % {"filter": text.strip()})
        ranks.update(_parse_part(part))
        if len(ranks) > MAX_RANKS:
            message = gettext("rank filter names more than %(max)s ranks")
            raise RankFilterError(message % {"max": MAX_RANKS})
    return frozenset(ranks)


def _parse_part(part: str) -> range:
    match = _PART.match(part)
    if match is None:
        message = gettext(
            "%(part)r is not a rank or a range of ranks; write e.g. 3 or 0-7 (ranks are ≥ 0)"
        )
        raise RankFilterError(message % {"part": part})
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if high < low:
        message = gettext("range %(part)r runs backwards; write %(high)s-%(low)s")
        raise RankFilterError(message % {"part": part, "high": high, "low": low})
    if high - low >= MAX_RANKS:
        message = gettext("range %(part)r names more than %(max)s ranks")
        raise RankFilterError(message % {"part": part, "max": MAX_RANKS})
    return range(low, high + 1)


def format_rank_filter(ranks: frozenset[int] | set[int] | None) -> str:
    """The shortest filter text for a set of ranks (the inverse of `parse_rank_filter`)."""
    if not ranks:
        return ""
    parts: list[str] = []
    ordered = sorted(ranks)
    start = prev = ordered[0]
    for rank in [*ordered[1:], None]:
        if rank is not None and rank == prev + 1:
            prev = rank
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if rank is not None:
            start = prev = rank
    return ",".join(parts)


def filter_notice(asked: frozenset[int] | None, present: list[int]) -> str | None:
    """What the page says when a filter names ranks the job does not have: that no lane is
    left (the chart would be empty), or which of the named ranks are not in the job."""
    if asked is None:
        return None
    job = frozenset(present)
    absent = asked - job
    if not absent:
        return None
    values = {
        "ranks": _short(format_rank_filter(job)),
        "absent": _short(format_rank_filter(absent)),
    }
    if not asked & job:
        return (
            gettext("No rank of this job is in the filter %(absent)s: its ranks are %(ranks)s.")
            % values
        )
    message = ngettext(
        "Rank %(absent)s is not in this job (its ranks are %(ranks)s).",
        "Ranks %(absent)s are not in this job (its ranks are %(ranks)s).",
        len(absent),
    )
    return message % values


def _short(text: str, most: int = 60) -> str:
    """A rank list cut to a readable length (a sparse job's list can be long)."""
    if len(text) <= most:
        return text
    cut = text.rfind(",", 0, most)
    return (text[:cut] if cut > 0 else text[:most]) + ",…"
