"""`npu-smi info` tables: per device health, power, temperature, AICore, HBM, processes.

910B (one chip per NPU; a row pair per device)::

    | npu-smi 24.1.rc3                 Version: 24.1.rc3                                             |
    | NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
    | Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
    | 0     855B1               | OK            | 94.6        49                0    / 0             |
    | 0                         | 5524:C1:00.0  | 0           0    / 0          5913 / 17389         |

A3 adds `Phy-ID` and prints `-` power for the second die; 310P has `Device` and only
Memory-Usage (taken as the device memory). Then the process table::

    | NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
    | 0       0                 | 2919830       | python3.10               | 57356                   |
    | No running processes found in NPU 1                                                            |

facts["npu_smi"] = {"devices": [...], "processes": [...], "no_process_npus": [...],
"version": ..., "health_checks": [...]} (`npu-smi info -t health` "Health Status : Alarm").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from analyzers.core import regex_programs

_BUS_ID = regex_programs.compile(r"^[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d$")
_VERSION = regex_programs.compile(r"npu-smi\s+(\S+)\s+Version:\s*(\S+)")
_NO_PROCESS = regex_programs.compile(r"No running processes found in NPU (\d+)")
# `used / total`, tried only where a number starts and never giving back a digit or a blank
# (neither could let the slash match): the same pairs, and a cell of digits read in one pass.
_USAGE = regex_programs.compile(r"(?<!\d)(\d++)\s*+/\s*+(\d+)")
_HEALTH_CHECK = regex_programs.compile(r"^\s*Health Status\s*:\s*(\S+)")


def parse(lines: Iterable[str]) -> dict[str, Any]:
    devices: list[dict[str, Any]] = []
    processes: list[dict[str, Any]] = []
    result: dict[str, Any] = {"devices": devices, "processes": processes, "no_process_npus": []}
    pending: dict[str, Any] | None = None
    in_processes = False
    for text in lines:
        if found := _VERSION.search(text):
            result["version"] = found.group(2)
        if found := _HEALTH_CHECK.match(text):
            result.setdefault("health_checks", []).append(found.group(1))
        if found := _NO_PROCESS.search(text):
            result["no_process_npus"].append(int(found.group(1)))
            continue
        cells = _cells(text)
        if not cells:
            continue
        if "Process id" in text:
            in_processes = True
        elif "Health" in text and "NPU" in text:
            in_processes = False
        elif in_processes:
            _process_row(cells, processes)
        elif len(cells) >= 3 and _BUS_ID.match(cells[1]) and pending is not None:
            devices.append({**pending, **_chip_row(cells)})
            pending = None
        elif len(cells) >= 3 and cells[0][:1].isdigit():
            pending = _npu_row(cells)
    return result if devices or processes or result["no_process_npus"] or len(result) > 3 else {}


def _cells(text: str) -> list[str]:
    text = text.strip()
    if not text.startswith("|"):
        return []
    return [cell.strip() for cell in text.strip("|").split("|")]


def _npu_row(cells: list[str]) -> dict[str, Any]:
    head = cells[0].split()
    numbers = cells[2].split()
    return {
        "npu": _int(head[0]),
        "name": " ".join(head[1:]) or None,
        "health": cells[1] or None,
        "power_w": _float(numbers[0]) if numbers else None,
        "temp_c": _float(numbers[1]) if len(numbers) > 1 else None,
    }


def _chip_row(cells: list[str]) -> dict[str, Any]:
    head = cells[0].split()
    usage = cells[2].split(None, 1)
    pairs = _USAGE.findall(usage[1]) if len(usage) > 1 else []
    memory = pairs[-1] if pairs else (None, None)  # HBM when shown, else Memory-Usage (310P)
    return {
        "chip": _int(head[0]) if head else None,
        "bus_id": cells[1],
        "aicore_pct": _float(usage[0]) if usage else None,
        "hbm_used_mb": _int(memory[0]),
        "hbm_total_mb": _int(memory[1]),
    }


def _process_row(cells: list[str], processes: list[dict[str, Any]]) -> None:
    head = cells[0].split()
    if len(cells) < 4 or not head or not head[0].isdigit() or not cells[1].isdigit():
        return
    processes.append(
        {
            "npu": int(head[0]),
            "chip": _int(head[1]) if len(head) > 1 else None,
            "pid": int(cells[1]),
            "name": cells[2],
            "memory_mb": _int(cells[3].split()[0]) if cells[3] else None,
        }
    )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
