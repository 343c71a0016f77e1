"""The report an analysis returns, the parts it is built from, and its JSON.

Everything the web app stores comes from `Report.to_dict()`, whose shape follows
`analyzers/schema/report.schema.json` (fields may be added, none removed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TextIO

from analyzers.core.checkpoint_timeline import Checkpoint, Timeline
from analyzers.core.limits import LimitHit
from analyzers.core.safetext import clean_text
from analyzers.core.types import ErrorRef, FileInfo, RankSummary


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


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    if cls not in _FIELD_NAMES:
        _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls)) if is_dataclass(cls) else None
    return _FIELD_NAMES[cls]
