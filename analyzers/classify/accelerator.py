"""Which accelerator stack a job ran on: Ascend, CUDA, none (a CPU job), or not known.

Advice differs by stack even when the failure is the same (an out-of-memory on an NPU is
tuned with PYTORCH_NPU_ALLOC_CONF, on a GPU with PYTORCH_CUDA_ALLOC_CONF; a collective's
timeout with HCCL_* or NCCL_* settings), so the case library needs to know it. The evidence
is what the bundle holds: CANN's own log files and npu-smi output, env dumps, and the error
and warning lines already found by the scan (`knowledge/accelerators.yaml`). Ascend wins any
overlap, so a bundle is read as CUDA only when nothing in it is Ascend's. A job is read as a
CPU job when its process group is gloo's and nothing names an accelerator: Ascend and CUDA
jobs make gloo groups too (vLLM's cpu_group, c10d's monitored barrier), so there gloo's lines
say nothing. The backend a job states is read from its start lines and its env dump:

    2026-11-29 07:23:53,653 [rank2] INFO init process group: backend=gloo rank=2 world_size=4
    TORCH_DISTRIBUTED_BACKEND=gloo
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from pathlib import Path

from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.core.types import EventKind, FileKind, FileScan
from analyzers.core.yamlcheck import Entry, compile_regex, read_yaml
from analyzers.formats.start_lines import START_LINES

ASCEND, CUDA, CPU = "ascend", "cuda", "cpu"
# the order decides a tie: Ascend software names CUDA too, and any accelerator's job may
# make a gloo group beside its own
STACKS = (ASCEND, CUDA, CPU)
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
    backend: re.Pattern[str] | None = None  # a stated backend (start lines, env entries)
    unless: re.Pattern[str] | None = None  # words that rule the stack out wherever they stand


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
        backend=_optional_regex(entry, "backend", 0),
        unless=_optional_regex(entry, "unless", re.IGNORECASE),
    )


def _optional_regex(entry: Entry, key: str, flags: int) -> re.Pattern[str] | None:
    pattern = entry.get(key, str, None)
    return None if pattern is None else compile_regex(pattern.strip(), flags, entry, key)


def switches_for(stack: str | None, switches: Sequence[str]) -> list[str]:
    """The diagnosis tree's environment switches (`NAME` or `NAME=value`, written for Ascend)
    as a job on `stack` would set them: a CUDA job sees a switch's CUDA twin, and none of the
    Ascend-only ones. A job on no stack anyone can tell (`unknown`, another accelerator's
    runtime) sees only the switches every stack sets alike: the node's device-neutral text
    names each stack's own. The bare tree (`None`) shows them as written."""
    if stack is None or stack == ASCEND:
        return list(switches)
    found = [s for s in load_stacks() if s.name == stack]
    others = found or [s for s in load_stacks() if s.name != ASCEND]
    shown = [_as_set_on(others, switch) for switch in switches]
    return [switch for switch in shown if switch is not None]


def _as_set_on(stacks: Sequence[Stack], switch: str) -> str | None:
    """The switch under its name on every one of `stacks`, or None where they differ or one
    lacks it."""
    name, sep, value = switch.partition("=")
    names = {_name_on(stack, name) for stack in stacks}
    if len(names) != 1 or None in names:
        return None
    return f"{names.pop()}{sep}{value}"


def _name_on(stack: Stack, name: str) -> str | None:
    if name in stack.env_renames:
        return stack.env_renames[name]
    hidden = stack.env_hidden and name.startswith(stack.env_hidden)
    return None if hidden else name


def accelerator_of(scans: Sequence[FileScan]) -> str | None:
    """The stack the bundle shows ("ascend", "cuda" or "cpu"), or None when it shows none."""
    return next((stack.name for stack in load_stacks() if _shows(stack, scans)), None)


def _shows(stack: Stack, scans: Sequence[FileScan]) -> bool:
    if not any(_evidence(stack, scan) for scan in scans):
        return False
    return stack.unless is None or not any(_rules_out(stack.unless, scan) for scan in scans)


def _evidence(stack: Stack, scan: FileScan) -> bool:
    if scan.info.kind in stack.file_kinds:
        return True
    env = scan.facts.get("env") or {}
    if stack.env_prefixes and any(str(key).startswith(stack.env_prefixes) for key in env):
        return True
    if stack.backend and any(stack.backend.search(text) for text in _stated_backends(scan)):
        return True
    return any(stack.lines.search(text) for text in _loud_lines(scan))


def _rules_out(unless: re.Pattern[str], scan: FileScan) -> bool:
    return any(unless.search(text) for text in chain(_loud_lines(scan), _stated_backends(scan)))


def _stated_backends(scan: FileScan) -> Iterator[str]:
    """Where a job states its process group's backend, in lower case: its ranks' start lines
    (kept folded by the scan) and the entries of an env dump (`NAME=value`)."""
    for _, _, folded in scan.facts.get(START_LINES) or ():
        yield folded
    for key, value in (scan.facts.get("env") or {}).items():
        yield f"{key}={value}".lower()


def _loud_lines(scan: FileScan) -> Iterable[str]:
    loud = (e for e in scan.events if e.kind is not EventKind.CHECKPOINT)
    for index, event in enumerate(loud):
        if index >= MAX_LINES_PER_FILE:
            return
        yield event.text
