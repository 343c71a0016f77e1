"""Typed values that cross module boundaries inside `analyzers` and leave it as JSON.

Everything the web app stores comes from `Report.to_dict()`, whose shape follows
`analyzers/schema/report.schema.json` (fields may be added, none removed).
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TextIO

from analyzers.core.limits import LimitHit
from analyzers.core.rank_json import encode_columns, id_strings, rank_chunks
from analyzers.core.safetext import clean_text


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
class Checkpoint:
    """A progress line; `key` is (normalised text, occurrence index) so ranks compare."""

    text: str
    index: int
    file: str
    line: int
    timestamp: str | None = None
    qualified: str | None = None  # e.g. "layer 2 / attention passed"


@dataclass(slots=True)
class RankSequence:
    """Every checkpoint one rank logged, in its order, as parallel compact columns.

    Ids index `Timeline.texts`, `Timeline.labels` and `Timeline.files`; times are epoch
    seconds (NaN when the line had none).
    """

    text: array = field(default_factory=lambda: array("I"))
    label: array = field(default_factory=lambda: array("I"))  # layer-qualified text id
    file: array = field(default_factory=lambda: array("I"))
    line: array = field(default_factory=lambda: array("Q"))
    time: array = field(default_factory=lambda: array("d"))

    def __len__(self) -> int:
        return len(self.text)


@dataclass(slots=True)
class Timeline:
    """Every rank's checkpoints. Nothing is sampled: facts are computed from all of them."""

    texts: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    ranks: dict[int, RankSequence] = field(default_factory=dict)
    # rank -> the peer its last progress line says it waits for (`waiting for kv from rank 3`)
    waits: dict[int, int] = field(default_factory=dict)
    # rank -> the peer that same line says it sends to, when it names both (a ring exchange)
    sends: dict[int, int] = field(default_factory=dict)
    # rank -> the peer its last hand-off line sends to, printed on a line of its own after
    # any receive (`send hidden to rank 2`)
    lone_sends: dict[int, int] = field(default_factory=dict)
    # rank -> the process groups it said it built, in its order (`creating group [0, 1]`)
    groups: dict[int, list[tuple[int, ...]]] = field(default_factory=dict)
    # (file id, line) of the first checkpoint after a line that opened a training step (`step
    # 3 start`, kept out of the sequences) -> that step
    step_opens: dict[tuple[int, int], int] = field(default_factory=dict)

    @classmethod
    def of(cls, checkpoints: dict[int, list[Checkpoint]]) -> Timeline:
        """A timeline from per-rank `Checkpoint` lists (hand-built values, small jobs)."""
        timeline = cls()
        ids: dict[tuple[str, str], dict[str, int]] = {}
        for rank, points in checkpoints.items():
            seq = timeline.ranks.setdefault(rank, RankSequence())
            for point in points:
                seq.text.append(_id(timeline.texts, ids, "text", point.text))
                seq.label.append(_id(timeline.labels, ids, "label", point.qualified or point.text))
                seq.file.append(_id(timeline.files, ids, "file", point.file))
                seq.line.append(point.line)
                seq.time.append(_epoch(point.timestamp))
        return timeline

    def total(self) -> int:
        return sum(len(seq) for seq in self.ranks.values())

    def checkpoint(self, rank: int, index: int) -> Checkpoint:
        """One entry as a `Checkpoint` (its occurrence index counted on the rank)."""
        seq = self.ranks[rank]
        text = seq.text[index]
        time = seq.time[index]
        return Checkpoint(
            text=self.texts[text],
            index=seq.text[:index].count(text),
            file=self.files[seq.file[index]],
            line=seq.line[index],
            timestamp=None if math.isnan(time) else _iso(time),
            qualified=self.labels[seq.label[index]] if len(seq.label) > index else None,
        )

    def last(self, rank: int) -> Checkpoint | None:
        seq = self.ranks.get(rank)
        return self.checkpoint(rank, len(seq) - 1) if seq else None

    def to_json(self) -> dict[str, Any]:
        """Columns, not an object per checkpoint: a big job has millions of them. Times are
        whole microseconds after `t0` (integers encode faster and smaller than floats)."""
        columns = self.columns()
        columns["ranks"] = dict(columns["ranks"].items())
        return columns

    def columns(self) -> dict[str, Any]:
        """`to_json`, with each rank's columns built only when that rank is read, so a
        reader going rank by rank never holds every rank's lists at once."""
        firsts = (_earliest(s.time) for s in self.ranks.values())
        t0 = min((t for t in firsts if t is not None), default=None)
        return {
            "texts": self.texts,
            "labels": self.labels,
            "files": self.files,
            "t0": t0,
            "ranks": LazyRankColumns(self.ranks, t0),
        }

    def write_json(self, out: TextIO, *, parallel: bool = True) -> None:
        """Write `to_json()` to a text stream one rank at a time (bounded memory);
        `parallel`: a big timeline may be encoded on two cores (`rank_json`)."""
        columns = self.columns()
        ranks = columns.pop("ranks")
        out.write(json.dumps(columns, ensure_ascii=False)[:-1] + ', "ranks": {')
        keys = list(ranks)
        first = keys[0] if keys else None
        ids = id_strings(max(len(self.texts), len(self.labels)))

        def encode(key: str) -> str:
            lead = "" if key == first else ", "
            return f'{lead}"{key}": ' + encode_columns(ranks[key], ids)

        sizes = [len(self.ranks[int(key)]) for key in keys]
        for chunk in rank_chunks(keys, sizes, encode, parallel=parallel):
            out.write(chunk)
        out.write("}}")


class LazyRankColumns(Mapping[str, dict[str, Any]]):
    """Rank (as a string) -> that rank's columns, built on access."""

    def __init__(self, ranks: dict[int, RankSequence], t0: float | None) -> None:
        self._ranks = ranks
        self._t0 = t0

    def __getitem__(self, key: str) -> dict[str, Any]:
        return _sequence_json(self._ranks[int(key)], self._t0)

    def __iter__(self) -> Iterator[str]:
        return (str(rank) for rank in self._ranks)

    def __len__(self) -> int:
        return len(self._ranks)


def _id(values: list[str], ids: dict, kind: str, value: str) -> int:
    table = ids.setdefault(kind, {})
    if value not in table:
        table[value] = len(values)
        values.append(value)
    return table[value]


def epoch(moment: datetime) -> float:
    """Seconds since the epoch; naive times (most logs) are read as UTC so ranks compare."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _epoch(timestamp: str | None) -> float:
    return epoch(datetime.fromisoformat(timestamp)) if timestamp else math.nan


def _earliest(times: array) -> float | None:
    """The earliest time; NaN (untimed) entries are skipped: `min` would misorder them."""
    if not math.isnan(sum(times)):
        return min(times) if times else None
    return min((t for t in times if t == t), default=None)


def _sequence_json(seq: RankSequence, t0: float | None) -> dict[str, Any]:
    times: list[int | None]
    if t0 is None:
        times = [None] * len(seq)
    elif not math.isnan(sum(seq.time)):  # all timed: C-level maps, no per-item bytecode
        shifted = map((0.5 - t0 * 1e6).__add__, map((1e6).__mul__, seq.time))
        times = list(map(math.floor, shifted))
    else:
        times = [None if t != t else round((t - t0) * 1e6) for t in seq.time]
    return {
        "text": seq.text.tolist(),
        "label": seq.label.tolist(),
        "file": _runs(seq.file),
        "line": seq.line.tolist(),
        "time_us": times,
    }


def _runs(values: array) -> list[list[int]]:
    """[[value, count], ...]: a rank's checkpoints nearly all come from one file."""
    if not values:
        return []
    if values.count(values[0]) == len(values):
        return [[values[0], len(values)]]
    runs: list[list[int]] = []
    for value in values:
        if runs and runs[-1][0] == value:
            runs[-1][1] += 1
        else:
            runs.append([value, 1])
    return runs


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).replace(tzinfo=None).isoformat()


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
    question: str  # worded for the job's stack, as the answer is (`TreeNode.words_for`)
    answer: str | None  # the branch taken, or None when the node could not be decided
    evidence: list[ErrorRef] = field(default_factory=list)


@dataclass(slots=True)
class Alternative:
    """Another label the evidence supports: which line or code says so, and how strongly
    (always below the chosen label's confidence)."""

    category: str
    evidence: str
    score: float
    evidence_zh: str | None = None  # the same evidence for Chinese pages (log text as logged)
    ref: ErrorRef | None = None  # the line that supports it, so a page can link to it


# The label of a failure nothing names (the taxonomy's `other`): the diagnosis's default, the
# answer when no rule, hint or learned word reads the first error, and the label no reading
# offers as an alternative.
UNLABELLED = "other"


@dataclass(slots=True)
class Diagnosis:
    category: str = UNLABELLED
    subsystem: str = "none"
    confidence: float = 0.0
    first_error: ErrorRef | None = None
    # Why the culprits are these ranks when the first error alone does not say it (reported
    # on another rank, several ranks failed together, a hang without an error line).
    culprit_reason: str | None = None
    error_codes: list[str] = field(default_factory=list)
    culprit_ranks: list[int] = field(default_factory=list)
    last_common_checkpoint: str | None = None
    last_common_checkpoint_occurrence: int | None = None  # 1-based, as on the lowest rank
    last_common_checkpoint_qualified: str | None = None
    root_cause: str = ""
    # The root cause and the culprit note in Chinese, built beside the English from the
    # same evidence (analyzers.core.phrases); None when there is no English to twin.
    root_cause_zh: str | None = None
    culprit_reason_zh: str | None = None
    next_actions: list[str] = field(default_factory=list)
    tree_path: list[str] = field(default_factory=list)
    tree_steps: list[TreeStep] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    fingerprint: str | None = None
    fingerprint_template: str | None = None
    alternatives: list[Alternative] = field(default_factory=list)
    # The accelerator stack the next actions are written for (`analyzers.report.advise.
    # stack_of`: the bundle's, else the one its first error names, else "unknown"); the
    # tree's steps and page use the texts written for it. None where no advice was chosen.
    stack: str | None = None


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
    # The same warnings in Chinese, item for item (absent in reports written before it).
    warnings_zh: list[str] = field(default_factory=list)
    # Budgets that cut the reading (`analyzers.core.limits`): each says what was not read.
    limits: list[LimitHit] = field(default_factory=list)
    files_not_listed: int = 0  # files read but left out of `files` (see Limits.listed_files)


@dataclass(slots=True)
class Report:
    bundle: BundleInfo
    world_size: int | None
    ranks: list[RankSummary]
    diagnosis: Diagnosis
    cases: list[CaseMatch] = field(default_factory=list)
    timeline: Timeline = field(default_factory=Timeline)
    environment: dict[str, Any] = field(default_factory=dict)
    # Job-level timeline facts: ahead/behind/missing/divergent ranks, clock offsets...
    correlation: dict[str, Any] = field(default_factory=dict)
    analyzer_version: str = ""
    # The given report schema fixes the version at 1 and lets fields be added: later fields
    # (alternatives, checkpoint counts, Chinese twins) are additions, not a new version.
    schema_version: int = 1

    def to_dict(self, *, timeline: bool = True) -> dict[str, Any]:
        """The report as JSON values; `timeline=False` leaves out the per-checkpoint columns
        (callers that stream them with `Timeline.write_json`)."""
        names = [n for n in _field_names(Report) or () if timeline or n != "timeline"]
        return {name: _jsonable(getattr(self, name)) for name in names}

    def write_json(self, out: TextIO, indent: int | None = None, *, parallel: bool = True) -> None:
        """The whole report as JSON text, the timeline streamed rank by rank."""
        head = json.dumps(self.to_dict(timeline=False), indent=indent, ensure_ascii=False)
        out.write(head[: head.rindex("}")].rstrip() + ', "timeline": ')
        self.timeline.write_json(out, parallel=parallel)
        out.write("}\n")


def _jsonable(value: Any) -> Any:
    """Plain JSON values; unlike `dataclasses.asdict` it copies nothing twice (a big job's
    report holds a hundred thousand checkpoints)."""
    cls = type(value)
    if cls is str:  # the report is stored as jsonb: no NUL, no lone surrogate
        return clean_text(value)
    names = _field_names(cls)
    if names is not None:
        if cls is Timeline:
            return value.to_json()
        if cls is Checkpoint:  # scalars only: no recursion
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
    """What one pass over one bundle member yields (built by `analyzers.scan.member`).

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

    @property
    def last_common_checkpoint(self) -> str | None:
        return self.last_common.text if self.last_common else None


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    if cls not in _FIELD_NAMES:
        _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls)) if is_dataclass(cls) else None
    return _FIELD_NAMES[cls]
