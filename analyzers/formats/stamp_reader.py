"""Read the timestamps of one prefix layout without a regex, after one full parse.

Checkpoint lines of a file share one timestamp layout (`2026-11-29 07:24:22,190`,
`2026-11-29-07:24:22.190.123`, `I1129 07:24:22.190000`). Everything up to the minutes
changes once a minute, so its value is cached; only the seconds and the fraction are read
per line. The first reading of every minute goes through `parse_time`, so a layout this
reader misjudges can only cost speed: callers still compare a few lines with a full parse.
"""

from __future__ import annotations

import re
from datetime import datetime

from analyzers.checkpoints.track import year_less
from analyzers.core.checkpoint_timeline import epoch
from analyzers.formats.timestamps import PartialTime, parse_time

_SECONDS = re.compile(rb":(\d\d)(?:[.,](\d{1,9})(?:\.(\d{3}))?|:(\d{3}))?$")
# Seconds since the epoch (`1796607942.272666`) read alike, their hundreds of seconds taking
# the minute's place: only the last two digits before the point and the fraction change.
_EPOCH = re.compile(rb"1\d{9}(?:\.\d{1,9})?")
_EPOCH_MINUTE_END = 8
# Seconds `float` reads as they are (a comma made a point): no more than microseconds.
_PLAIN_SECONDS = re.compile(rb"\d\d(?:[.,]\d{1,6})?")
_SEPARATORS = b".,:"
MINUTES_KEPT = 4096


def time_value(moment: datetime | PartialTime | None) -> tuple[float, bool] | None:
    """Seconds for a parsed time, and whether it still waits for its year."""
    if isinstance(moment, datetime):
        return epoch(moment), False
    if isinstance(moment, PartialTime):
        seconds = moment.hour * 3600 + moment.minute * 60 + moment.second
        return year_less(moment.month, moment.day, seconds + moment.microsecond / 1e6), True
    return None


class StampReader:
    """Reads stamps of the layout it was made from; None when a stamp does not fit it."""

    def __init__(self, example: bytes) -> None:
        found = _SECONDS.search(example)
        self.width = len(example)
        self.minute_end = found.start() + 1 if found else -1
        if found is None and _EPOCH.fullmatch(example):
            self.minute_end = _EPOCH_MINUTE_END
        self.minutes: dict[bytes, tuple[float, bool] | None] = {}
        seconds = example[self.minute_end :] if self.usable else b""
        # `plain`: the seconds read with one float() call (callers inline that hot path)
        self.plain = _PLAIN_SECONDS.fullmatch(seconds) is not None
        self.comma = b"," in seconds

    @property
    def usable(self) -> bool:
        return self.minute_end > 0

    def read(self, stamp: bytes) -> tuple[float, bool] | None:
        cut = self.minute_end
        if len(stamp) != self.width:
            return None
        minute = self.minutes.get(stamp[:cut], _UNKNOWN)
        if minute is _UNKNOWN:
            minute = self._learn_minute(stamp)
        seconds = self._seconds(stamp)
        if minute is None or seconds is None:
            return None
        return minute[0] + seconds, minute[1]

    def _seconds(self, stamp: bytes) -> float | None:
        """Seconds and fraction after the minute (microseconds at most, as `parse_time`)."""
        cut = self.minute_end
        try:
            digits = stamp[cut + 3 :].translate(None, _SEPARATORS)
            fraction = int(digits[:6]) / 10 ** min(len(digits), 6) if digits else 0.0
            return int(stamp[cut : cut + 2]) + fraction
        except ValueError:
            return None

    def _learn_minute(self, stamp: bytes) -> tuple[float, bool] | None:
        """The value of the stamp's minute, from a full parse of the whole stamp."""
        whole = time_value(parse_time(stamp.decode("ascii", "replace")))
        seconds = self._seconds(stamp)
        minute = None
        if whole is not None and seconds is not None:
            minute = (round(whole[0] - seconds, 6), whole[1])
        if len(self.minutes) < MINUTES_KEPT:
            self.minutes[stamp[: self.minute_end]] = minute
        return minute


_UNKNOWN = (float("nan"), False)
