"""The facts the diagnosis tree decides on, gathered from the diagnosis, the rank
correlation and the per-file scans.

Facts that were not observed stay `None` (unknown), never `False`: a bundle without an
`npu-smi` snapshot says nothing about HBM, and the tree keeps such nodes open.

Scan facts read here: "npu_smi" and "host" (see `analyzers.timeline.npu_state`),
"elastic_failures" = [{"rank", "local_rank", "exitcode", "signal", "pid", ...}] (torch
elastic; cited by the ERROR event on the record's exitcode line), and npu-smi device names
or chip settings for the hardware generation (`analyzers.library.matching.hardware_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.report import UNLABELLED, Diagnosis
from analyzers.core.types import Correlation, ErrorRef, EventKind, FileScan
from analyzers.library.matching import find_operators, hardware_of, template
from analyzers.timeline.npu_state import NpuState, cpu_busy, npu_state

MAX_LINES = 4000

# torch_npu's OOM text: "... (NPU 6; 60.97 GiB total capacity; 10.24 GiB already allocated;
# ... 19.79 MiB free; 10.65 GiB reserved in total by PyTorch)"
_OOM = regex_programs.compile(
    r"([\d.]+) ([KMGT]i?B) total capacity; ([\d.]+) ([KMGT]i?B) already allocated;"
    r".*?([\d.]+) ([KMGT]i?B) free; ([\d.]+) ([KMGT]i?B) reserved in total"
)
_UNITS = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


@dataclass(frozen=True, slots=True)
class FactLine:
    """A line the tree may cite: its reference and the text predicates match."""

    ref: ErrorRef
    text: str


@dataclass(slots=True)
class ExitFact:
    exitcode: int
    rank: int | None
    ref: ErrorRef | None


@dataclass(slots=True)
class TreeFacts:
    """Everything a tree predicate may look at, for one incident."""

    category: str = UNLABELLED
    subsystem: str = "none"
    first_error: ErrorRef | None = None
    lines: tuple[FactLine, ...] = ()
    codes: frozenset[str] = frozenset()
    operators: dict[str, ErrorRef] = field(default_factory=dict)
    world_size: int | None = None
    missing_ranks: tuple[int, ...] = ()
    diverged_ranks: tuple[int, ...] = ()
    behind_ranks: tuple[int, ...] = ()
    culprit_ranks: tuple[int, ...] = ()
    last_checkpoints: tuple[FactLine, ...] = ()
    checkpoint_count: int = 0
    exits: tuple[ExitFact, ...] = ()
    npu: NpuState | None = None
    cpu_busy: bool | None = None
    hardware: str | None = None
    oom_outside_allocator: bool | None = None
    oom_fragmented: bool | None = None
    oom_ref: ErrorRef | None = None

    def summary(self) -> dict[str, str]:
        """Values for the `{placeholders}` in node labels."""
        return {
            "category": self.category,
            "operator": next(iter(self.operators), "?"),
            "code": next(iter(sorted(self.codes)), "?"),
            "last_checkpoint": self.last_checkpoints[0].text if self.last_checkpoints else "?",
            "missing_ranks": _ranks(self.missing_ranks),
            "diverged_ranks": _ranks(
                self.culprit_ranks or self.diverged_ranks or self.behind_ranks
            ),
            "culprit_ranks": _ranks(self.culprit_ranks),
            "exit_code": ", ".join(str(e.exitcode) for e in self.exits) or "?",
        }


def _ranks(ranks: Sequence[int]) -> str:
    """The ranks as a label names them; empty when there are none, so the label's clause
    about them is left out (`analyzers.core.bilingual.fill`)."""
    return ", ".join(map(str, ranks))


# ------------------------------------------------------------------------------ builder


def facts_from(
    diagnosis: Diagnosis, correlation: Correlation, scans: Sequence[FileScan]
) -> TreeFacts:
    """Collect the tree's facts; cheap, and bounded in the number of lines kept."""
    lines = _error_lines(diagnosis, scans)
    facts = TreeFacts(
        category=diagnosis.category,
        subsystem=diagnosis.subsystem,
        first_error=diagnosis.first_error,
        lines=lines,
        codes=frozenset(_codes(diagnosis, scans)),
        operators=operators_in(lines),
        world_size=correlation.world_size,
        culprit_ranks=tuple(diagnosis.culprit_ranks),
        exits=tuple(_exits(scans)),
        npu=npu_state([s for s in scans if s.facts.get("npu_smi")], correlation.world_size),
        cpu_busy=cpu_busy(scans),
        hardware=hardware_of(scans),
    )
    _add_rank_facts(facts, correlation)
    _add_oom_facts(facts)
    return facts


def _error_lines(diagnosis: Diagnosis, scans: Sequence[FileScan]) -> tuple[FactLine, ...]:
    """First error, then the diagnosis' evidence, then every error event; one line per
    template (the same message with other numbers on other ranks is cited once)."""
    refs: list[FactLine] = []
    if diagnosis.first_error:
        refs.append(FactLine(diagnosis.first_error, diagnosis.first_error.text))
    refs.extend(FactLine(ev.ref, ev.ref.text) for ev in diagnosis.evidence)
    for scan in scans:
        for event in scan.events:
            if event.kind == EventKind.ERROR:
                refs.append(FactLine(event.ref(), event.message or event.text))
    first: dict[str, FactLine] = {}
    for fact in refs:
        first.setdefault(template(fact.text), fact)
    unique = list(first.values())
    return tuple(unique[:MAX_LINES])


def _codes(diagnosis: Diagnosis, scans: Sequence[FileScan]) -> set[str]:
    codes = set(diagnosis.error_codes)
    for ev in diagnosis.evidence:
        codes.update(ev.codes)
    for scan in scans:
        for event in scan.events:
            codes.update(event.codes)
    return codes


def operators_in(lines: Iterable[FactLine]) -> dict[str, ErrorRef]:
    found: dict[str, ErrorRef] = {}
    for line in lines:
        for name in find_operators(line.text):
            found.setdefault(name, line.ref)
    return found


def _add_rank_facts(facts: TreeFacts, correlation: Correlation) -> None:
    facts.missing_ranks = tuple(correlation.missing_ranks)
    facts.diverged_ranks = tuple(correlation.divergent_ranks)
    facts.behind_ranks = tuple(correlation.behind_ranks)
    facts.checkpoint_count = correlation.timeline.total()
    facts.last_checkpoints = tuple(_last_checkpoints(correlation, facts.culprit_ranks))


def _last_checkpoints(correlation: Correlation, culprits: Sequence[int]) -> list[FactLine]:
    """Each rank's last checkpoint, the culprits' (or the laggards') first."""
    first = list(culprits) or list(correlation.behind_ranks)
    order = first + [r for r in sorted(correlation.timeline.ranks) if r not in first]
    out = []
    for rank in order:
        cp = correlation.timeline.last(rank)
        if cp is not None:
            ref = ErrorRef(cp.file, cp.line, cp.text, rank, cp.timestamp)
            out.append(FactLine(ref, cp.qualified or cp.text))
    return out


def _exits(scans: Sequence[FileScan]) -> Iterable[ExitFact]:
    """Exit codes from torch elastic records, cited by the event on their exitcode line."""
    for scan in scans:
        for item in scan.facts.get("elastic_failures") or ():
            code = _int(item.get("exitcode")) if isinstance(item, Mapping) else None
            if code is None:
                continue
            rank = _int(item.get("rank"))
            rank = rank if rank is not None else _int(item.get("local_rank"))
            yield ExitFact(code, rank, _exit_ref(scan, code, item))


def _exit_ref(scan: FileScan, code: int, item: Mapping[str, Any]) -> ErrorRef | None:
    if (line := _int(item.get("line"))) is not None:
        return ErrorRef(scan.info.path, line, str(item.get("text") or ""), _int(item.get("rank")))
    wanted = regex_programs.compile(rf"exit ?code:? *{code}\b")
    pid = str(item.get("pid") or "")
    for event in scan.events:
        text = event.message or event.text
        if event.kind == EventKind.ERROR and wanted.search(text) and (not pid or pid in text):
            return event.ref()
    return None


def _add_oom_facts(facts: TreeFacts) -> None:
    for line in facts.lines:
        match = _OOM.search(line.text)
        if match:
            total, allocated, free, reserved = (
                _bytes(match.group(i), match.group(i + 1)) for i in (1, 3, 5, 7)
            )
            facts.oom_outside_allocator = reserved < 0.5 * total and free < 0.02 * total
            facts.oom_fragmented = reserved - allocated > max(2**30, 0.2 * reserved)
            facts.oom_ref = line.ref
            return


def _bytes(number: str, unit: str) -> float:
    return float(number) * _UNITS.get(unit[0].upper(), 1)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
