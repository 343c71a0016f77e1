"""The facts the diagnosis tree decides on, gathered from the diagnosis, the rank
correlation and the per-file scans.

Facts that were not observed stay `None` (unknown), never `False`: a bundle without an
`npu-smi` snapshot says nothing about HBM, and the tree keeps such nodes open.

Scan facts read here (all optional; any of the spellings listed is accepted):
  "npu_smi": {"devices": [{"npu", "name", "health", "aicore"|"aicore_pct",
              "hbm_used_mb"|"hbm_used", "hbm_total_mb"|"hbm_total"}],
              "processes": [{"npu", "pid", "name", "memory_mb", "cpu_percent"?}],
              "line"?: int}  -- one snapshot per scanned file, ordered by file path
  "host": {"cpu_percent": {pid: percent}}      -- from a top/ps dump
  "elastic_failures": [{"rank", "exitcode", "line"?, "text"?}]
  "versions": {"chip"|"soc_version"|...: "Ascend910B3"}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzers.cases import find_operators, template
from analyzers.types import Correlation, Diagnosis, ErrorRef, EventKind, FileScan

MAX_LINES = 4000
HBM_LOW_MB = 4608  # a process that holds only the runtime context (~3 GB) has no weights yet
HBM_UNEVEN_RATIO = 0.5  # least-used card below half the most-used one
HBM_UNEVEN_MIN_MB = 4096
HBM_FLAT_TOLERANCE = 0.02
CPU_BUSY_PERCENT = 80.0
CPU_IDLE_PERCENT = 10.0

# Chip names as npu-smi and version files print them -> hardware generation.
HARDWARE_NAMES = (
    (re.compile(r"310P", re.I), "310P"),
    (re.compile(r"910_?93|A3\b", re.I), "A3"),
    (re.compile(r"910B|910_?B|A2\b", re.I), "A2"),
)

# torch_npu's OOM text: "... (NPU 6; 60.97 GiB total capacity; 10.24 GiB already allocated;
# ... 19.79 MiB free; 10.65 GiB reserved in total by PyTorch)"
_OOM = re.compile(
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
class NpuState:
    """What `npu-smi` snapshots say about the job's devices (None = not observable)."""

    processes: int | None = None
    hbm_uneven: bool | None = None
    hbm_flat: bool | None = None
    hbm_growing: bool | None = None
    hbm_low: bool | None = None
    aicore_idle: bool | None = None
    leftover_processes: bool | None = None
    refs: tuple[ErrorRef, ...] = ()


@dataclass(slots=True)
class ExitFact:
    exitcode: int
    rank: int | None
    ref: ErrorRef | None


@dataclass(slots=True)
class TreeFacts:
    """Everything a tree predicate may look at, for one incident."""

    category: str = "other"
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
            "diverged_ranks": _ranks(self.diverged_ranks or self.behind_ranks),
            "culprit_ranks": _ranks(self.culprit_ranks),
            "exit_code": ", ".join(str(e.exitcode) for e in self.exits) or "?",
        }


def _ranks(ranks: Sequence[int]) -> str:
    return ", ".join(map(str, ranks)) if ranks else "none"


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
        cpu_busy=_cpu_busy(scans),
        hardware=_hardware(scans),
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
    facts.checkpoint_count = sum(len(cps) for cps in correlation.timeline.values())
    facts.last_checkpoints = tuple(_last_checkpoints(correlation, facts.culprit_ranks))


def _last_checkpoints(correlation: Correlation, culprits: Sequence[int]) -> list[FactLine]:
    """Each rank's last checkpoint, the culprits' (or the laggards') first."""
    first = list(culprits) or list(correlation.behind_ranks)
    order = first + [r for r in sorted(correlation.timeline) if r not in first]
    out = []
    for rank in order:
        cps = correlation.timeline.get(rank) or []
        if cps:
            cp = cps[-1]
            ref = ErrorRef(cp.file, cp.line, cp.text, rank, cp.timestamp)
            out.append(FactLine(ref, cp.qualified or cp.text))
    return out


def _exits(scans: Sequence[FileScan]) -> Iterable[ExitFact]:
    """Exit codes from torch elastic records, cited by the event on their exitcode line."""
    for scan in scans:
        for item in scan.facts.get("elastic_failures") or ():
            code = _int(item.get("exitcode"))
            if code is None:
                continue
            rank = _int(item.get("rank"))
            rank = rank if rank is not None else _int(item.get("local_rank"))
            yield ExitFact(code, rank, _exit_ref(scan, code, item))


def _exit_ref(scan: FileScan, code: int, item: Mapping[str, Any]) -> ErrorRef | None:
    if (line := _int(item.get("line"))) is not None:
        return ErrorRef(scan.info.path, line, str(item.get("text") or ""), _int(item.get("rank")))
    wanted = re.compile(rf"exit ?code:? *{code}\b")
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


def _num(item: Mapping[str, Any], *keys: str) -> float | None:
    for key in keys:
        value = item.get(key)
        if value is not None:
            try:
                return float(value)
            except (TypeError, ValueError):
                return None
    return None


# ------------------------------------------------------------------------------ npu-smi


def npu_state(scans: Sequence[FileScan], world_size: int | None) -> NpuState | None:
    """Summarise npu-smi snapshots (oldest first by path); None when there are none."""
    if not scans:
        return None
    snapshots = [s.facts["npu_smi"] for s in sorted(scans, key=lambda s: s.info.path)]
    last = snapshots[-1]
    used = [_hbm(d) for d in last.get("devices") or ()]
    used = [u for u in used if u is not None]
    state = NpuState(refs=tuple(_npu_refs(scans)))
    state.processes = _process_count(last)
    state.hbm_low = max(used) <= HBM_LOW_MB if used else None
    state.hbm_uneven = _uneven(used)
    state.aicore_idle = _aicore_idle(last, state.processes)
    state.hbm_flat, state.hbm_growing = _hbm_trend(snapshots)
    if state.processes is not None and world_size:
        state.leftover_processes = state.processes > world_size
    return state


def _process_count(snapshot: Mapping[str, Any]) -> int | None:
    """Processes listed; None when the snapshot had no process table at all."""
    processes = snapshot.get("processes") or []
    if processes or snapshot.get("no_process_npus"):
        return len(processes)
    return None


def _hbm(device: Mapping[str, Any]) -> float | None:
    return _num(device, "hbm_used_mb", "hbm_used", "hbm_usage_mb", "memory_used_mb")


def _uneven(used: Sequence[float]) -> bool | None:
    if len(used) < 2:
        return None
    return max(used) >= HBM_UNEVEN_MIN_MB and min(used) < HBM_UNEVEN_RATIO * max(used)


def _aicore_idle(snapshot: Mapping[str, Any], processes: int | None) -> bool | None:
    loads = [
        _num(d, "aicore", "aicore_pct", "aicore_percent") for d in snapshot.get("devices") or ()
    ]
    loads = [x for x in loads if x is not None]
    if not loads or not processes:
        return None
    return all(x == 0 for x in loads)


def _hbm_trend(snapshots: Sequence[Mapping[str, Any]]) -> tuple[bool | None, bool | None]:
    """(flat, growing) over the snapshots; unknown with fewer than two."""
    totals = [
        sum(u for d in s.get("devices") or () if (u := _hbm(d)) is not None) for s in snapshots
    ]
    totals = [t for t in totals if t > 0]
    if len(totals) < 2:
        return None, None
    change = (totals[-1] - totals[0]) / max(totals[0], 1.0)
    return abs(change) <= HBM_FLAT_TOLERANCE, change > HBM_FLAT_TOLERANCE


def _npu_refs(scans: Sequence[FileScan]) -> Iterable[ErrorRef]:
    for scan in scans:
        line = _int(scan.facts["npu_smi"].get("line")) or 1
        yield ErrorRef(scan.info.path, line, "npu-smi info")


def _cpu_busy(scans: Sequence[FileScan]) -> bool | None:
    loads: list[float] = []
    for scan in scans:
        host = scan.facts.get("host") or {}
        loads.extend(float(v) for v in (host.get("cpu_percent") or {}).values())
        for proc in (scan.facts.get("npu_smi") or {}).get("processes") or ():
            if (cpu := _num(proc, "cpu_percent", "cpu")) is not None:
                loads.append(cpu)
    if not loads:
        return None
    if all(x >= CPU_BUSY_PERCENT for x in loads):
        return True
    return False if all(x <= CPU_IDLE_PERCENT for x in loads) else None


def _hardware(scans: Sequence[FileScan]) -> str | None:
    for scan in scans:
        names = [
            str(d.get("name", "")) for d in (scan.facts.get("npu_smi") or {}).get("devices") or ()
        ]
        names += [str(v) for v in (scan.facts.get("versions") or {}).values()]
        for name in names:
            for pattern, generation in HARDWARE_NAMES:
                if pattern.search(name):
                    return generation
    return None
