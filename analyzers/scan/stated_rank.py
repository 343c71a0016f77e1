"""The rank a file whose path names none states before its first progress line.

A cluster's log collector packs each node's output under the host's name (`node-3/stdout.txt`,
`10.0.0.12/output.log`, `worker-1/main.log`, a pod's `<pod-name>.log`), so the path gives no
rank. When the file names exactly one rank (`formats.hints`: `rank_hint`) and names it at or
before its first checkpoint (a start line `rank=3 world_size=8`, a logging tag on its first
lines), that rank wrote the file: its untagged lines (plain prints) are that rank's. A rank
named only after the progress began (one rank's `[rank3]:` traceback at the end of a stdout
several ranks share) says whose error that is, not whose file.
"""

from __future__ import annotations

from typing import Any


def stated_rank(facts: dict[str, Any], first_checkpoint_line: int | None) -> int | None:
    rank, line = facts.get("rank_hint"), facts.get("rank_hint_line")
    if not isinstance(rank, int) or not isinstance(line, int):
        return None
    if first_checkpoint_line is not None and line > first_checkpoint_line:
        return None
    return rank
