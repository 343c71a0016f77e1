"""One signature matched on one line, and an event with its matches: the values the
classifier produces and the block-context rules read."""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzers.classify.errorcodes import CodeInfo
from analyzers.classify.signature import Signature
from analyzers.core.types import Event, FileKind

_OPERATOR = re.compile(
    r"(?<![\w/.])(aclnn[A-Z]\w+|Hccl(?:All[Rr]educe|All[Gg]ather\w*|ReduceScatter\w*|"
    r"Broadcast|All[Tt]o[Aa]ll\w*|Reduce|Send|Recv|Barrier|BatchSendRecv)\b)"
)


@dataclass(frozen=True, slots=True)
class Match:
    """One signature matched on one line, with what the line's codes add to it."""

    signature: Signature
    category: str
    subsystem: str
    role: str
    weight: int
    codes: tuple[CodeInfo, ...] = ()
    culprits: tuple[int, ...] = ()
    operator: str | None = None
    group_rank: int | None = None  # the writer's rank in the group the culprits are numbered in

    @property
    def id(self) -> str:
        return self.signature.id


@dataclass(slots=True)
class Classified:
    """An event with its matches; `order` is its file's position in the bundle, `rank` the
    event's rank or else its file's, `kind` the file's kind."""

    event: Event
    order: int
    matches: tuple[Match, ...]
    tier: float
    rank: int | None = None
    kind: FileKind = FileKind.OTHER
    demoted: bool = False
    recovered: bool = False  # the rank logged progress after it
    # it reports on an unread line that leads its block (`classify.record_leads`): below that
    # line, but its label is still the block's reading of it
    reports_lead: bool = False

    @property
    def best(self) -> Match | None:
        return self.matches[0] if self.matches else None

    @property
    def category(self) -> str | None:
        return self.best.category if self.best else None

    @property
    def codes(self) -> tuple[CodeInfo, ...]:
        return tuple(info for match in self.matches for info in match.codes)

    @property
    def operator(self) -> str | None:
        found = next((m.operator for m in self.matches if m.operator), None)
        return found or _operator_in(self.event.message or self.event.text)


def _operator_in(message: str) -> str | None:
    found = _OPERATOR.search(message)
    return found.group(1) if found else None
