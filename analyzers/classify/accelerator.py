"""Which accelerator stack a job ran on: Ascend, CUDA, or not known from the bundle.

Advice differs by stack even when the failure is the same (an out-of-memory on an NPU is
tuned with PYTORCH_NPU_ALLOC_CONF, on a GPU with PYTORCH_CUDA_ALLOC_CONF; a collective's
timeout with HCCL_* or NCCL_* settings), so the case library needs to know it. The evidence
is what the bundle holds: CANN's own log files and npu-smi output, env dumps, and the error
and warning lines already found by the scan (`knowledge/accelerators.yaml`). Ascend wins any
overlap, so a bundle is read as CUDA only when nothing in it is Ascend's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.core.types import EventKind, FileKind, FileScan
from analyzers.core.yamlcheck import Entry, compile_regex, read_yaml

ASCEND, CUDA = "ascend", "cuda"
STACKS = (ASCEND, CUDA)  # the order decides a tie: Ascend software names CUDA too
MAX_LINES_PER_FILE = 200  # the scan keeps error/warning lines in order; the head says enough


@dataclass(frozen=True, slots=True)
class Stack:
    name: str
    file_kinds: frozenset[FileKind]
    env_prefixes: tuple[str, ...]
    lines: re.Pattern[str]
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()
    env_renames: Mapping[str, str] = field(default_factory=dict)
    env_hidden: tuple[str, ...] = ()


@cache
def load_stacks(path: Path = KNOWLEDGE_DIR / "accelerators.yaml") -> tuple[Stack, ...]:
    data = Entry(read_yaml(path), path.name)
    found = Entry(data.get("accelerators", dict), f"{path.name}: accelerators")
    return tuple(
        _stack(name, Entry(found.get(name, dict), f"{found.where}: {name}")) for name in STACKS
    )


def _stack(name: str, entry: Entry) -> Stack:
    kinds = entry.strings("file_kinds", required=False)
    unknown = [kind for kind in kinds if kind not in FileKind.__members__.values()]
    if unknown:
        raise entry.fail(f"unknown file kinds {unknown}")
    return Stack(
        name=name,
        file_kinds=frozenset(FileKind(kind) for kind in kinds),
        env_prefixes=entry.strings("env_prefixes", required=False),
        lines=compile_regex(entry.get("lines", str).strip(), 0, entry, "lines"),
        examples=entry.strings("examples", required=False),
        counterexamples=entry.strings("counterexamples", required=False),
        env_renames={str(k): str(v) for k, v in entry.get("env_renames", dict, {}).items()},
        env_hidden=entry.strings("env_hidden", required=False),
    )


def switches_for(stack: str | None, switches: Sequence[str]) -> list[str]:
    """The diagnosis tree's environment switches (`NAME` or `NAME=value`, written for Ascend)
    as a job on `stack` would set them: a CUDA job sees a switch's CUDA twin, and none of the
    Ascend-only ones."""
    found = next((s for s in load_stacks() if s.name == stack), None)
    if found is None or stack == ASCEND:
        return list(switches)
    shown = []
    for switch in switches:
        name, sep, value = switch.partition("=")
        if name in found.env_renames:
            shown.append(found.env_renames[name] + sep + value)
        elif not (found.env_hidden and name.startswith(found.env_hidden)):
            shown.append(switch)
    return shown


def accelerator_of(scans: Sequence[FileScan]) -> str | None:
    """The stack the bundle shows ("ascend" or "cuda"), or None when it shows neither."""
    seen = {stack.name: _shows(stack, scans) for stack in load_stacks()}
    return next((name for name in STACKS if seen[name]), None)


def _shows(stack: Stack, scans: Sequence[FileScan]) -> bool:
    for scan in scans:
        if scan.info.kind in stack.file_kinds:
            return True
        env = scan.facts.get("env") or {}
        if stack.env_prefixes and any(str(key).startswith(stack.env_prefixes) for key in env):
            return True
        if any(stack.lines.search(text) for text in _loud_lines(scan)):
            return True
    return False


def _loud_lines(scan: FileScan) -> Iterable[str]:
    loud = (e for e in scan.events if e.kind is not EventKind.CHECKPOINT)
    for index, event in enumerate(loud):
        if index >= MAX_LINES_PER_FILE:
            return
        yield event.text
