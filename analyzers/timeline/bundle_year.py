"""Place the times a file wrote without a year, once the whole bundle has been read.

The ranks of one job ran in one year. A file that never said it takes the year most of the
bundle's dated files say; with no dated file at all, its own modification time (kept by tar,
zip and the disk) gives it. Without either, its year-less times stay unplaced, as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from analyzers.core.types import FileScan
from analyzers.formats.year_less import YEAR_LESS, YearLess, year_of_modified


def place_year_less_times(scans: Sequence[FileScan]) -> None:
    years = Counter(scan.facts["year"] for scan in scans if "year" in scan.facts)
    bundle_year = years.most_common(1)[0][0] if years else None
    for scan in scans:
        pending: YearLess | None = scan.facts.pop(YEAR_LESS, None)
        if pending is None:
            continue
        year = bundle_year or year_of_modified(scan.info.modified, pending.months())
        if year is not None:
            _place(scan, pending, year)


def _place(scan: FileScan, pending: YearLess, year: int) -> None:
    for index, time in pending.events:
        if index < len(scan.events):
            scan.events[index].timestamp = time.with_year(year)
    track = scan.facts.get("checkpoints")
    if track is not None and len(pending.checkpoints[0]):
        track.place_year_less(pending.checkpoints, year)
