"""Lines stamped with the classic Unix time, month name first and no year.

    Mar  1 10:00:05 RuntimeError: ...              (moreutils `ts`, a shell loop's `date`)

The system journal and syslog put the host and program between the time and the record
(`Mar 01 10:00:05 node3 python[4121]: ...`); that form is peeled as a wrapper
(`formats.collector_stamps`), which keeps its time the same way. The year is not written: the
scanner borrows it from the file, as for glog.
"""

from __future__ import annotations

from analyzers.formats.base import header
from analyzers.formats.timestamps import MONTH_NAMES

NAME = "syslog"
TIME = "(?:" + "|".join(MONTH_NAMES) + r") [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"

HEADERS = (header(NAME, r"(?P<ts>" + TIME + r") (?=[ \t]*\S)"),)  # keeps the line's indent
