"""What `npu-smi` snapshots (and host CPU dumps) say about a job's devices and processes.

Reads the scanner's facts: "npu_smi" = {"devices": [{"npu", "name", "health", "aicore_pct",
"hbm_used_mb", "hbm_total_mb"}], "processes": [{"npu", "pid", "name", "memory_mb"}],
"no_process_npus": [...]} per snapshot file (older spellings "aicore"/"hbm_used" too), and an
optional "host" = {"cpu_percent": {pid: percent}}. With one snapshot HBM trends are unknown;
without a process table the process count is unknown. Unknown stays None, never False.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from analyzers.core.types import ErrorRef, FileScan

HBM_LOW_MB = 4608  # a process that holds only the runtime context (~3 GB) has no weights yet
HBM_UNEVEN_RATIO = 0.5  # least-used card below half the most-used one
HBM_UNEVEN_MIN_MB = 4096
HBM_FLAT_TOLERANCE = 0.02
CPU_BUSY_PERCENT = 80.0
CPU_IDLE_PERCENT = 10.0


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
    """Whether the job's NPUs compute nothing. Without a process table, NPUs that all hold
    more than a bare runtime context still show that a job sits on them."""
    devices = snapshot.get("devices") or ()
    loads = [_num(d, "aicore", "aicore_pct", "aicore_percent") for d in devices]
    loads = [x for x in loads if x is not None]
    if not loads or processes == 0:
        return None
    if processes is None and not _all_occupied(devices):
        return None
    return all(x == 0 for x in loads)


def _all_occupied(devices: Iterable[Mapping[str, Any]]) -> bool:
    used = [_hbm(d) for d in devices]
    return bool(used) and all(u is not None and u > HBM_LOW_MB for u in used)


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
        line = as_int(scan.facts["npu_smi"].get("line")) or 1
        yield ErrorRef(scan.info.path, line, "npu-smi info")


def cpu_busy(scans: Sequence[FileScan]) -> bool | None:
    loads: list[float] = []
    for scan in scans:
        per_pid = (scan.facts.get("host") or {}).get("cpu_percent") or {}
        loads.extend(x for x in map(_float, per_pid.values()) if x is not None)
        for proc in (scan.facts.get("npu_smi") or {}).get("processes") or ():
            if (cpu := _num(proc, "cpu_percent", "cpu")) is not None:
                loads.append(cpu)
    if not loads:
        return None
    if all(x >= CPU_BUSY_PERCENT for x in loads):
        return True
    return False if all(x <= CPU_IDLE_PERCENT for x in loads) else None


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _num(item: Mapping[str, Any], *keys: str) -> float | None:
    """The first of `keys` present in `item`, as a number (None if absent or not a number)."""
    if not isinstance(item, Mapping):
        return None
    value = next((item[k] for k in keys if item.get(k) is not None), None)
    return _float(value)
