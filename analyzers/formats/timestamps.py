"""Read the time of a log line, whatever the format, as a naive local `datetime`.

Formats (all local wall clock, no zone):

- CANN plog / error manager: `2027-04-02-19:29:32.538.614` (ms.us), PTA `2025-05-16-20:08:19`
- Python logging `2026-11-29 07:24:28,507`, loguru `2026-02-26 19:18:17.731`,
  watchdog query `[2027-10-14 15:24:01:938]`, ISO `2024-07-19T10:17:55+08:00` (zone dropped)
- torch elastic summary `2026-09-07_13:02:58`
- glog `E1129 07:24:27.616993348` / `[E324 13:00:25.428029551` (MMDD, no year); newer glog
  `E20260311 09:15:02.330100` (YYYYMMDD)
- vLLM `04-02 19:33:00` (MM-DD, no year)
- the Hugging Face example scripts' `%m/%d/%Y %H:%M:%S`: `12/04/2026 10:11:12` (month first; a
  first field over 12 can only be a day, so such a date is read day first)
- syslog, the journal and moreutils `ts`: `Mar  1 10:00:05` (month name, no year)
- the AWS Neuron runtime and its collectives: `2024-May-23 11:42:07.244955` (month name)
- seconds since the epoch (logging's `%(created)f`): `1796607942.272666 [rank3] INFO ...`,
  `[1796607942.27] ...`, read as UTC, only where the line's own stamp stands (see `_EPOCH`)

Formats without a year give a `PartialTime`; the scanner fills the year in from other lines
of the same file (or its name) once it knows one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from analyzers.core import regex_programs

_FULL = regex_programs.compile(
    r"(?<!\d)(\d{4})-(\d\d)-(\d\d)[-_ T](\d\d):(\d\d):(\d\d)"
    r"(?:[.,:](\d{1,9}))?(?:\.(\d{3}))?(?!\d)"
)
_GLOG = regex_programs.compile(
    r"(?<![\w])[IWEFVC](\d{3,4}) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?!\d)"
)
_GLOG_YEAR = regex_programs.compile(
    r"(?<![\w])[IWEFVC](20\d\d)(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?!\d)"
)
_SLASHED = regex_programs.compile(
    r"(?<![\d/])(\d\d)/(\d\d)/(\d{4}),? (\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9}))?(?!\d)"
)
_MONTH_DAY = regex_programs.compile(
    r"(?<![\d/-])(\d\d)[-/](\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?!\d)"
)
MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_NAMED_MONTH = regex_programs.compile(
    r"(?<!\w)(" + "|".join(MONTH_NAMES) + r") ([ \d]\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?!\d)"
)
_YEAR_NAMED_MONTH = regex_programs.compile(
    r"(?<!\d)(\d{4})-("
    + "|".join(MONTH_NAMES)
    + r")-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?!\d)"
)
# Seconds since the epoch, where a formatter puts the record's time: opening the text, or
# after the rank or level tag it writes first (`ERROR 1796607942.27 ...`, `[rank3] 17966...`).
# Ten digits, 1000000000 (2001) to 1999999999 (2033); a count, pid or byte total anywhere else
# in a line is never read. A whole number counts only bracketed, alone, or with a rank or level
# tag after it: a count before words (`1500000000 bytes written`) is no time.
_EPOCH_TAG = r"(?:\[[Rr]ank ?\d{1,6}\]:?|DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)"
_EPOCH = regex_programs.compile(
    r"(?:" + _EPOCH_TAG + r" )?(\[)?(1\d{9})(?:\.(\d{1,9}))?(?(1)\])(?=\s|$)"
)
_TAG_AFTER_EPOCH = regex_programs.compile(r"\s+" + _EPOCH_TAG + r"(?=\s|$)")
_UNIX_EPOCH = datetime(1970, 1, 1)
_YEAR_IN_NAME = regex_programs.compile(r"(?<!\d)(20\d\d)(\d\d)(\d\d)(\d{6,})?(?!\d)")
_ANY_YEAR = regex_programs.compile(rb"(20\d\d)-(?:0[1-9]|1[0-2])-(?:[0-2]\d|3[01])[-_ T]\d\d:")


@dataclass(frozen=True, slots=True)
class PartialTime:
    """A time whose line did not say the year."""

    month: int
    day: int
    hour: int
    minute: int
    second: int
    microsecond: int = 0

    def with_year(self, year: int) -> datetime | None:
        try:
            return datetime(
                year, self.month, self.day, self.hour, self.minute, self.second, self.microsecond
            )
        except ValueError:
            return None


def parse_time(text: str) -> datetime | PartialTime | None:
    """The line's leading epoch stamp, else the first timestamp in `text` (full dates win
    over year-less ones)."""
    found = _epoch_stamp(text)
    if found:
        return _UNIX_EPOCH + timedelta(seconds=int(found.group(2)), microseconds=_micro(found[3]))
    found = _FULL.search(text)
    if found:
        return _full(found)
    found = _GLOG_YEAR.search(text)
    if found:
        return _glog_year(found)
    found = _YEAR_NAMED_MONTH.search(text)
    if found:
        return _year_named_month(found)
    found = _SLASHED.search(text)
    if found:
        return _slashed(found)
    found = _GLOG.search(text)
    if found:
        return _glog(found)
    found = _MONTH_DAY.search(text)
    if found:
        month, day, hour, minute, second = (int(found.group(i)) for i in range(1, 6))
        return _partial(month, day, hour, minute, second, found.group(6))
    found = _NAMED_MONTH.search(text)
    if found:
        month = MONTH_NAMES.index(found.group(1)) + 1
        day, hour, minute, second = (int(found.group(i)) for i in range(2, 6))
        return _partial(month, day, hour, minute, second, found.group(6))
    return None


def time_span(text: str) -> tuple[int, int] | None:
    """Where `parse_time` would read its timestamp in `text`."""
    found = _epoch_stamp(text)
    if found:
        return found.start(2), found.end(3 if found.group(3) else 2)
    patterns = (_FULL, _GLOG_YEAR, _YEAR_NAMED_MONTH, _SLASHED, _GLOG, _MONTH_DAY, _NAMED_MONTH)
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            return found.span()
    return None


def _epoch_stamp(text: str) -> re.Match[str] | None:
    """The epoch stamp that opens `text` (after a rank or level tag), if it is one."""
    found = _EPOCH.match(text)
    if found is None or found.group(1) or found.group(3):
        return found  # bracketed or with a fraction: a formatter's stamp
    if found.end() == len(text) or _TAG_AFTER_EPOCH.match(text, found.end()):
        return found
    return None


def _full(found: re.Match[str]) -> datetime | None:
    year, month, day, hour, minute, second = (int(found.group(i)) for i in range(1, 7))
    fraction, micro = found.group(7), found.group(8)
    if micro is not None and fraction is not None and len(fraction) == 3:
        microsecond = int(fraction) * 1000 + int(micro)  # CANN ms.us
    else:
        microsecond = _micro(fraction)
    try:
        return datetime(year, month, day, hour, minute, second, microsecond)
    except ValueError:
        return None


def _glog_year(found: re.Match[str]) -> datetime | None:
    year, month, day, hour, minute, second = (int(found.group(i)) for i in range(1, 7))
    try:
        return datetime(year, month, day, hour, minute, second, _micro(found.group(7)))
    except ValueError:
        return None


def _year_named_month(found: re.Match[str]) -> datetime | None:
    year, month = int(found.group(1)), MONTH_NAMES.index(found.group(2)) + 1
    day, hour, minute, second = (int(found.group(i)) for i in range(3, 7))
    try:
        return datetime(year, month, day, hour, minute, second, _micro(found.group(7)))
    except ValueError:
        return None


def _slashed(found: re.Match[str]) -> datetime | None:
    month, day, year, hour, minute, second = (int(found.group(i)) for i in range(1, 7))
    if month > 12 >= day:
        month, day = day, month
    try:
        return datetime(year, month, day, hour, minute, second, _micro(found.group(7)))
    except ValueError:
        return None


def _glog(found: re.Match[str]) -> PartialTime | None:
    month_day = found.group(1)
    month, day = int(month_day[:-2]), int(month_day[-2:])
    hour, minute, second = (int(found.group(i)) for i in range(2, 5))
    return _partial(month, day, hour, minute, second, found.group(5))


def _partial(
    month: int, day: int, hour: int, minute: int, second: int, fraction: str | None
) -> PartialTime | None:
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
        return None
    return PartialTime(month, day, hour, minute, min(second, 59), _micro(fraction))


def _micro(fraction: str | None) -> int:
    if not fraction:
        return 0
    return int(fraction[:6].ljust(6, "0"))


def year_from_name(name: str) -> int | None:
    """`plog-1382_20250805194601414.log` -> 2025."""
    for found in _YEAR_IN_NAME.finditer(name):
        year, month, day = int(found.group(1)), int(found.group(2)), int(found.group(3))
        if 1 <= month <= 12 and 1 <= day <= 31:
            return year
    return None


def year_in_bytes(block: bytes) -> int | None:
    """The year of the first full date in a block of raw log text."""
    found = _ANY_YEAR.search(block)
    return int(found.group(1)) if found else None


def resolve(value: datetime | PartialTime | None, year: int | None) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return value.with_year(year) if year else None
