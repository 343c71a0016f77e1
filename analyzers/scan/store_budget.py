"""How much the log viewer's copy of one run (the line store) may take on disk.

The copy of a multi-GB bundle is a few hundred MB; a bundle of 200,000 tiny files would
still cost a disk file or two each (1.6 GB of file-system blocks for 2.5 MB of logs). Files are
kept while the run's store is under `Limits.store_bytes`, counting each file's actual size
plus `FILE_OVERHEAD` for its blocks and index, and up to `Limits.store_files` files (creating
two files costs more than scanning a small one); later files are scanned but not copied (the
viewer then reads them from the bundle, slowly). Scans still in flight may overshoot the
limit by what the scanners hold, a few tens of MB.
"""

from __future__ import annotations

import os
from pathlib import Path

from analyzers.core.limits import LimitHit, size_text
from analyzers.core.phrases import say
from analyzers.scan.linestore import store_name

FILE_OVERHEAD = 8 * 1024
UNLIMITED = 2**62


class StoreBudget:
    def __init__(self, store_dir: str | None, limit: int, max_files: int = UNLIMITED) -> None:
        self.store_dir = store_dir
        self.limit = limit
        self.max_files = max_files
        self.used = 0
        self.kept = 0
        self.not_kept = 0

    def dir_for(self, path: str) -> str | None:
        """Where to copy this file, or None: no store wanted, or the budget is spent."""
        if self.store_dir is None:
            return None
        if self.used >= self.limit or self.kept >= self.max_files:
            self.not_kept += 1
            return None
        self.kept += 1
        return self.store_dir

    def add(self, path: str, store_dir: str | None) -> None:
        """Count a file the scanner finished copying into `store_dir` (None: not copied)."""
        if store_dir is None:
            return
        stem = Path(store_dir) / store_name(path)
        self.used += FILE_OVERHEAD
        for suffix in (".lines", ".json"):
            try:
                self.used += os.stat(f"{stem}{suffix}").st_size
            except OSError:
                continue

    def hit(self) -> LimitHit | None:
        if not self.not_kept:
            return None
        limit = "store_files" if self.kept >= self.max_files else "store_bytes"
        kept, used, more = f"{self.kept:,}", size_text(self.used), f"{self.not_kept:,}"
        return LimitHit.said(limit, say("limit.store", kept=kept, used=used, more=more))
