"""Knobs a caller may pass to `analyze` (site-wide or per-incident settings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from analyzers.core.limits import Limits

# progress(percent 0-100, step text)
ProgressCallback = Callable[[int, str], None]


@dataclass(frozen=True, slots=True)
class AnalyzeOptions:
    checkpoint_patterns: tuple[str, ...] = ()  # extra regexes that mark a checkpoint line
    workers: int = 0  # processes for per-file scanning; 0 = one per CPU, 1 = in-process
    progress: ProgressCallback | None = None
    # Keep a seekable copy of every file here for the log viewer (None: keep nothing).
    store_dir: str | None = None
    # What one analysis may read and write (None: `Limits.from_env()`, RANKLENS_LIMIT_*).
    limits: Limits | None = None
    # The name people know the bundle by, when the file is stored under another (a hash):
    # a name that promises another kind of archive than the bytes hold earns a warning.
    name: str | None = None
