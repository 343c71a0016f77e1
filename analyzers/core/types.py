"""Typed values that cross module boundaries inside `analyzers`: the lines a scan finds, the
files it read, and what comparing the ranks yields.

The checkpoint columns are `analyzers.core.checkpoint_timeline`; the report built from all of
these, and its JSON, is `analyzers.core.report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from analyzers.core.checkpoint_timeline import Checkpoint, Timeline


class FileKind(StrEnum):
    RANK_LOG = "rank_log"
    PLOG = "plog"
    DEVICE_LOG = "device_log"
    HCCL_LOG = "hccl_log"
    NPU_SMI = "npu_smi"
    LAUNCHER = "launcher"
    ENV = "env"
    VERSIONS = "versions"
    OTHER = "other"


class EventKind(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    CHECKPOINT = "checkpoint"


class RankStatus(StrEnum):
    OK = "ok"
    ERROR = "error"
    HUNG = "hung"
    MISSING = "missing"
    KILLED = "killed"


@dataclass(slots=True)
class Event:
    """One interesting line: an error/warning candidate or a checkpoint.

    `text` is the line as it stands in the file (decoded, possibly cut); `message` is the
    part after format prefixes (`[rank3]: `, plog header, vLLM worker tag) that rules match.
    """

    file: str
    line: int
    text: str
    kind: EventKind
    message: str = ""
    rank: int | None = None
    timestamp: datetime | None = None
    level: str | None = None
    source: str | None = None  # format that produced it: "plog", "torch_npu", "traceback", ...
    codes: tuple[str, ...] = ()
    pid: int | None = None
    worker: str | None = None  # a serving framework's process tag (formats/worker_tags.py)
    # The `(NAME pid=N)` tag a Ray or vLLM process put on the line (`NAME pid=N`), kept apart
    # from `pid`, which a CANN line inside it replaces with the runtime's own PID.
    process: str | None = None
    # For checkpoints: the occurrence index of this text in its file, set when the scanner
    # counted some checkpoint lines in bulk without making events of them.
    occurrence: int | None = None
    # The time is a log collector's stamp put in front of the line (`kubectl logs
    # --timestamps`, the journal), not one the program wrote: another clock than the
    # program's own, whose zone and offset the lines do not say.
    collected: bool = False

    def ref(self) -> ErrorRef:
        return ErrorRef(
            file=self.file,
            line=self.line,
            text=self.text,
            rank=self.rank,
            timestamp=self.timestamp.isoformat() if self.timestamp else None,
        )


@dataclass(slots=True)
class ErrorRef:
    """A citation of one log line: what the report and the pages link to."""

    file: str
    line: int
    text: str
    rank: int | None = None
    timestamp: str | None = None


@dataclass(slots=True)
class FileInfo:
    path: str
    kind: FileKind
    rank: int | None
    lines: int = 0
    size_bytes: int = 0
    modified: float | None = None  # seconds since the epoch, from the archive or disk


@dataclass(slots=True)
class SkippedFile(FileInfo):
    """A member the report lists but that was not read (its bytes are binary), with why in
    English and Chinese: the uploader sees the file was there, and why it says nothing."""

    skipped: str = ""
    skipped_zh: str = ""


@dataclass(slots=True)
class RankSummary:
    rank: int
    status: RankStatus
    last_checkpoint: str | None
    first_error: ErrorRef | None
    checkpoints: int = 0  # every checkpoint line of the rank, counted exactly
    last_checkpoint_qualified: str | None = None
    # 1-based: the last checkpoint is the n-th line with its normalised text on this rank
    last_checkpoint_occurrence: int | None = None
    files: list[str] = field(default_factory=list)
    # the rank's files whose last line has no line end, with that line: the writer stopped
    # mid-line (killed while writing, a full disk, a truncated copy), so the rank may have
    # gone further than its last checkpoint in them shows
    log_cut: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class FileScan:
    """What one pass over one bundle member yields (built by `analyzers.scan.member`).

    `facts` holds format-specific structured data, keyed by topic, e.g.
    "env" -> {"RANK": "3", ...}, "versions" -> {"torch": "2.1.0", ...},
    "npu_smi" -> {...}, "elastic_failures" -> [{"rank": 1, "exitcode": -11, ...}],
    "world_size" -> 8. Keys are documented in the module that fills them.
    """

    info: FileInfo
    events: list[Event] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RankLogs:
    """Which ranks' own logs the bundle holds empty and which of the world's ranks it holds no
    log of (`analyzers.timeline.rank_logs`). Read once, so the last checkpoint common to all
    ranks, the diagnosis and the report's limits never judge a rank's log differently."""

    # ranks whose own rank log is in the bundle but empty, with no line of theirs elsewhere
    empty: tuple[int, ...] = ()
    # ranks of the job with no rank log of their own in the bundle and no line anywhere
    logless: tuple[int, ...] = ()
    # every rank log of the bundle, those naming no rank too, when each one is empty; else none
    all_empty: tuple[str, ...] = ()


@dataclass(slots=True)
class Correlation:
    """Job-level facts from comparing the ranks' checkpoint sequences (`analyzers.timeline.correlate`)."""

    ranks: list[RankSummary]
    timeline: Timeline
    world_size: int | None
    last_common: Checkpoint | None = None
    ahead_ranks: list[int] = field(default_factory=list)
    behind_ranks: list[int] = field(default_factory=list)
    missing_ranks: list[int] = field(default_factory=list)
    divergent_ranks: list[int] = field(default_factory=list)
    divergence: str | None = None  # human sentence: where a rank's sequence left the others'
    divergence_zh: str | None = None  # the same sentence in Chinese (not in the report)
    # where the first divergent rank left: its checkpoint position (0-based) and rank
    divergence_at: dict[str, Any] | None = None
    # seconds each rank's clock runs ahead of the reference rank's, from shared checkpoints
    clock_offsets: dict[int, float] = field(default_factory=dict)
    # rank -> the peer it was left waiting for, by its own last progress line
    waiting_on: dict[int, int] = field(default_factory=dict)
    # rank -> the peer that same line says it sends to (`sending kv to rank 3, waiting ...`)
    sending_to: dict[int, int] = field(default_factory=dict)
    # rank -> the peer its last hand-off line, one of its own after any receive, sends to
    sent_alone: dict[int, int] = field(default_factory=dict)
    # False when the launcher gave up before starting any worker (report/not_started.py)
    workers_started: bool = True
    rank_logs: RankLogs = field(default_factory=RankLogs)

    @property
    def last_common_checkpoint(self) -> str | None:
        return self.last_common.text if self.last_common else None
