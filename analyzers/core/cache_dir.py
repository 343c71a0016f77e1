"""The private directory the analyzer keeps its caches in (checked knowledge, regex programs).

It is `$RANKLENS_CACHE_DIR`, else `$XDG_CACHE_HOME/ranklens` or `~/.cache/ranklens`, and it
is used only when it belongs to this user and nobody else may write to it: a pickle runs code
when loaded, and a regex program is run by the regex engine.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path | None:
    """The private cache directory, created if missing; None when it is not safe to use."""
    configured = os.environ.get("RANKLENS_CACHE_DIR")
    if configured == "":
        return None  # set but empty: caching switched off
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        directory = Path(configured) if configured else Path(base) / "ranklens"
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = directory.stat()
    except (OSError, RuntimeError):  # no home directory for this user, or no room
        return None
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        return None
    if status.st_mode & 0o022:
        return None
    return directory
