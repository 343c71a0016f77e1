"""UCX's own log lines (the communication library under NIXL, Open MPI and some KV-cache
transfer engines), one per message:

    [1754892342.417620] [decode-pod-0:281  :0]    ib_mlx5dv_md.c:1100 UCX  ERROR mlx5_2: ...
    [1784276812.402517] [gpu-node-3:1002714:1]      ib_mlx5_dv.c:452  UCX  ERROR   mlx5dv_...
    [1744331142.028115] [gpu-node-7:2802608:a]      ucp_worker.c:1903 UCX  INFO    ucp_context_2 ...

The seconds since the epoch with microseconds, the host, process and thread in brackets (the
process id padded inside them), the source file and line padded to a column, then `UCX` and
the level: FATAL, ERROR, WARN, DIAG, INFO, DEBUG or one of the TRACE levels. The level is
read from the header, so an ERROR line counts as the writer's error whatever its words (its
reason is often a bare errno text such as `No such device`) and a WARN line that names
missing transports stays a warning. `UCX <LEVEL>` is left at the start of the message, where
rules that quote UCX's errors read it. The epoch time is not taken: the other writers of the
same process log their local wall clock, and UCX's line order in the file is kept instead.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "ucx"

LEVELS = (
    ("FATAL", "CRITICAL"),
    ("ERROR", "ERROR"),
    ("WARN", "WARNING"),
    ("DIAG", "INFO"),
    ("INFO", "INFO"),
    ("DEBUG", "DEBUG"),
    ("TRACE", "DEBUG"),
    ("REQ", "DEBUG"),
    ("DATA", "DEBUG"),
    ("ASYNC", "DEBUG"),
    ("FUNC", "DEBUG"),
    ("POLL", "DEBUG"),
)

HEADERS = (
    header(
        NAME,
        r"\[\d{9,11}\.\d+\]\s+\[[^\]\s:]+:\s*(?P<pid>\d+)\s*:\s*\w+\]\s+[\w.-]+\.(?:c|cc|cpp|h):\d+"
        r"\s+(?=UCX\s+(?:TRACE_)?(?P<level>FATAL|ERROR|WARN|DIAG|INFO|DEBUG|TRACE|REQ|DATA|ASYNC|FUNC|POLL)\b)",
        LEVELS,
    ),
)
