"""Python logging whose formatter prints the record's time as seconds since the epoch
(`%(created)f`), as some hosts of a job are set up to:

    1796607948.357836 [rank2] ERROR model run failed: [...pair.cc:553] Connection closed by peer
    [1796607942.330359] INFO layer 1 passed
    1796607942 INFO model run success
    ERROR 1796607942.272666 [rank3] model run failed: ...
    [rank3] 1796607942.272666 INFO layer 0 passed

The stamp, the rank tag and the level are the header; the time is UTC (`formats.timestamps`).
A stamp with a fraction may stand alone before the message; a whole number needs a rank or
level tag after it, since a count that opens a line (`1500000000 bytes written`) is no time.
UCX's lines (`[1754892342.417620] [host:pid:thread] file.c:12 UCX ERROR`) are left to
`formats.ucxlog`, which keeps their line order rather than their time.
"""

from __future__ import annotations

from analyzers.formats.base import header
from analyzers.formats.pylogging import NAME

_RANK = r"\[[Rr]ank ?(?P<rank>\d{1,6})\]:? "
_LEVEL = r"(?P<level>DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)(?: |$)"
_TAGS = r"(?:" + _RANK + r")?(?:" + _LEVEL + r")?"
_NOT_UCX = r"(?!\[[^\]\s]*:)"  # UCX's `[host:pid:thread]` bracket follows its stamp

HEADERS = (
    header(NAME, r"\[?(?P<ts>1\d{9}\.\d{1,9})\]? " + _NOT_UCX + _TAGS),
    header(
        NAME,
        r"\[?(?P<ts>1\d{9})\]? (?=\[[Rr]ank ?\d|(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)"
        r"(?: |$))" + _TAGS,
    ),
    header(NAME, _LEVEL + r"\[?(?P<ts>1\d{9}(?:\.\d{1,9})?)\]? (?:" + _RANK + r")?"),
    header(NAME, _RANK + r"\[?(?P<ts>1\d{9}(?:\.\d{1,9})?)\]? (?:" + _LEVEL + r")?"),
)
