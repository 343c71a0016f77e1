"""Times a file wrote without their year, kept for the bundle to place.

glog, vLLM and syslog stamps carry no year; a file's own dated lines or its name usually
give it (`formats.hints`). A file with none of those (a rank's plain prints with torch's
glog-style `[E1204 ...]` lines) would lose every time and fall out of the cross-rank order,
so its year-less times travel with its scan (`YEAR_LESS` in the facts) until the bundle's
other files, or the file's own modification time, say the year (`timeline.bundle_year`).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from datetime import UTC, datetime

from analyzers.checkpoints.track import grid_month
from analyzers.formats.timestamps import PartialTime

YEAR_LESS = "year_less"  # the facts key


@dataclass(slots=True)
class YearLess:
    events: list[tuple[int, PartialTime]]  # (index in the scan's events, its time)
    # checkpoints: (index in the track, its time on the track's year-less grid)
    checkpoints: tuple[array, array]

    def months(self) -> list[int]:
        found = [time.month for _, time in self.events]
        found += [grid_month(grid) for grid in self.checkpoints[1]]
        return found


def year_of_modified(modified: float | None, months: list[int]) -> int | None:
    """The year a file written at `modified` most likely stamped its `months` in: the
    modification year, or the one before when a month lies after the modification month
    (a log started in December and closed in January)."""
    if modified is None or not months:
        return None
    try:
        written = datetime.fromtimestamp(modified, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return written.year - 1 if max(months) > written.month else written.year
