"""What a file says about its own error lines, read once before they are classified.

A line's words give its reading; the file around it decides how far that reading counts: the
rank went on to log progress after it (`analyzers.classify.recovery`), Python raised it while
handling an earlier exception, a handler failed writing the failure down, the interpreter only
printed it, a wrapper carries another process's exception, the launcher killed a survivor
(`analyzers.classify.process_ends`). `classify.events` places each line by these marks.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from analyzers.checkpoints.restarts import restart_lines
from analyzers.classify.process_ends import stdout_copied_late, teardown_kill_lines
from analyzers.classify.recovery import last_progress, logged_success, progress_by_attempt
from analyzers.classify.traceback_records import (
    carrier_lines,
    handler_write_lines,
    ignored_lines,
    inner_packages,
    reraised_lines,
    thread_lines,
)
from analyzers.core.types import FileScan


@dataclass(slots=True)
class FileMarks:
    """The marks of one file's lines; line sets hold physical line numbers."""

    scan: FileScan
    reraised: set[int]
    failed_writes: set[int]
    threads: set[int]  # exceptions that ended a thread, not the rank
    carriers: set[int]
    ignored: set[int]
    teardown: set[int]
    copied_late: set[int]  # ranks whose progress after an error proves nothing
    restarts: list[int]
    progress: dict[int | None, int]
    by_attempt: list[dict[int | None, int]]
    _raised: dict[int, Sequence[str]] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, scan: FileScan) -> FileMarks:
        restarts = restart_lines(scan)
        return cls(
            scan=scan,
            reraised=reraised_lines(scan),
            failed_writes=handler_write_lines(scan),
            # a thread's death is no recovery of a rank that never finished: the progress
            # after it was the main thread's, which then stopped
            threads=set() if logged_success(scan) else thread_lines(scan),
            carriers=carrier_lines(scan),
            ignored=ignored_lines(scan),
            teardown=teardown_kill_lines(scan),
            copied_late=stdout_copied_late(scan),
            restarts=restarts,
            progress=last_progress(scan),
            by_attempt=progress_by_attempt(scan, restarts) if restarts else [],
        )

    def raised_in(self, line: int) -> Sequence[str]:
        """The innermost installed-package frames of the traceback ending at `line`; read from the
        file only when a rule asks, as few lines need it."""
        if self._raised is None:
            self._raised = inner_packages(self.scan)
        return self._raised.get(line, ())

    def progress_after(self, line: int) -> dict[int | None, int]:
        """The last progress line per rank of the attempt that wrote `line`."""
        if not self.restarts:
            return self.progress
        return self.by_attempt[bisect_right(self.restarts, line)]
