"""Typed values that cross module boundaries inside `analyzers` and leave it as JSON.

Everything the web app stores comes from `Report.to_dict()`, whose shape follows
`analyzers/schema/report.schema.json` (fields may be added, none removed).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from analyzers.limits import LimitHit
from analyzers.safetext import clean_text


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
    # For checkpoints: the occurrence index of this text in its file, set when the scanner
    # counted some checkpoint lines in bulk without making events of them.
    occurrence: int | None = None

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


@dataclass(slots=True)
class Checkpoint:
    """A progress line; `key` is (normalised text, occurrence index) so ranks compare."""

    text: str
    index: int
    file: str
    line: int
    timestamp: str | None = None
    qualified: str | None = None  # e.g. "layer 2 / attention passed"


@dataclass(slots=True)
class RankSummary:
    rank: int
    status: RankStatus
    last_checkpoint: str | None
    first_error: ErrorRef | None
    checkpoints: int = 0
    last_checkpoint_qualified: str | None = None
    files: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Evidence:
    """A cited line with the role it plays in the diagnosis (cause, cascade, context)."""

    ref: ErrorRef
    role: str
    rule: str | None = None
    category: str | None = None
    codes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class TreeStep:
    node: str
    question: str
    answer: str | None  # the branch taken, or None when the node could not be decided
    evidence: list[ErrorRef] = field(default_factory=list)


@dataclass(slots=True)
class Diagnosis:
    category: str = "other"
    subsystem: str = "none"
    confidence: float = 0.0
    first_error: ErrorRef | None = None
    error_codes: list[str] = field(default_factory=list)
    culprit_ranks: list[int] = field(default_factory=list)
    last_common_checkpoint: str | None = None
    root_cause: str = ""
    next_actions: list[str] = field(default_factory=list)
    tree_path: list[str] = field(default_factory=list)
    tree_steps: list[TreeStep] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    fingerprint: str | None = None
    fingerprint_template: str | None = None


@dataclass(slots=True)
class CaseMatch:
    id: str
    title: str
    score: float


@dataclass(slots=True)
class BundleInfo:
    name: str
    sha256: str
    size_bytes: int
    files: list[FileInfo] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Budgets that cut the reading (`analyzers.limits`): each says what was not read.
    limits: list[LimitHit] = field(default_factory=list)
    files_not_listed: int = 0  # files read but left out of `files` (see Limits.listed_files)


@dataclass(slots=True)
class Report:
    bundle: BundleInfo
    world_size: int | None
    ranks: list[RankSummary]
    diagnosis: Diagnosis
    cases: list[CaseMatch] = field(default_factory=list)
    timeline: dict[int, list[Checkpoint]] = field(default_factory=dict)
    environment: dict[str, Any] = field(default_factory=dict)
    # Job-level timeline facts: ahead/behind/missing/divergent ranks, clock offsets...
    correlation: dict[str, Any] = field(default_factory=dict)
    analyzer_version: str = ""
    schema_version: int = 1

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(self)  # type: ignore[no-any-return]


def _jsonable(value: Any) -> Any:
    """Plain JSON values; unlike `dataclasses.asdict` it copies nothing twice (a big job's
    report holds a hundred thousand checkpoints)."""
    cls = type(value)
    if cls is str:  # the report is stored as jsonb: no NUL, no lone surrogate
        return clean_text(value)
    names = _field_names(cls)
    if names is not None:
        if cls is Checkpoint:  # scalars only, and most of a big report: no recursion
            return {name: getattr(value, name) for name in names}
        return {name: _jsonable(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        return {clean_text(str(k)): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


@dataclass(slots=True)
class FileScan:
    """What one pass over one bundle member yields (built by `analyzers.scan`).

    `facts` holds format-specific structured data, keyed by topic, e.g.
    "env" -> {"RANK": "3", ...}, "versions" -> {"torch": "2.1.0", ...},
    "npu_smi" -> {...}, "elastic_failures" -> [{"rank": 1, "exitcode": -11, ...}],
    "world_size" -> 8. Keys are documented in the module that fills them.
    """

    info: FileInfo
    events: list[Event] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Correlation:
    """Job-level facts from comparing the ranks' checkpoint sequences (`analyzers.correlate`)."""

    ranks: list[RankSummary]
    timeline: dict[int, list[Checkpoint]]
    world_size: int | None
    last_common_checkpoint: str | None = None
    ahead_ranks: list[int] = field(default_factory=list)
    behind_ranks: list[int] = field(default_factory=list)
    missing_ranks: list[int] = field(default_factory=list)
    divergent_ranks: list[int] = field(default_factory=list)
    divergence: str | None = None  # human sentence: where a rank's sequence left the others'
    # seconds each rank's clock runs ahead of the reference rank's, from shared checkpoints
    clock_offsets: dict[int, float] = field(default_factory=dict)


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    if cls not in _FIELD_NAMES:
        _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls)) if is_dataclass(cls) else None
    return _FIELD_NAMES[cls]
