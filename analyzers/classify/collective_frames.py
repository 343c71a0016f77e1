"""Which collective a rank was in when its wait failed, from its traceback's innermost frame.

A collective timeout (`Timed out waiting 15000ms for recv operation to complete`) reads the
same on every rank; the traceback under it says where each rank was waiting. The frame
patterns and the list of calls that every rank of a group enters together are data
(`knowledge/collectives.yaml`), so another collective API is one entry there.

The same file holds the lines in which a process-group watchdog names the work it gave up on
(`WorkNCCL(SeqNum=77, OpType=BROADCAST, ...)`): `named_work` reads one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.core.yamlcheck import Entry, compile_regex, read_yaml


@dataclass(frozen=True, slots=True)
class FramePattern:
    id: str
    pattern: re.Pattern[str]
    examples: tuple[tuple[str, str], ...] = ()
    counterexamples: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NamedWork:
    """The work a watchdog line names: its sequence number in its process group, its op type
    and the group's id when the line says them."""

    seq: int
    op: str | None = None
    group: str | None = None


@dataclass(frozen=True, slots=True)
class WorkPattern:
    id: str
    pattern: re.Pattern[str]
    examples: tuple[tuple[str, NamedWork], ...] = ()
    counterexamples: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CollectiveFrames:
    frames: tuple[FramePattern, ...]
    collectives: frozenset[str]
    works: tuple[WorkPattern, ...] = ()
    work_group: re.Pattern[str] | None = None  # the `[PG ...]` prefix before a work


@cache
def load_frames(path: Path = KNOWLEDGE_DIR / "collectives.yaml") -> CollectiveFrames:
    data = Entry(read_yaml(path), path.name)
    frames = tuple(
        _frame(Entry(item, f"{path.name}: frame #{n}"))
        for n, item in enumerate(data.get("frames", list), 1)
    )
    works = tuple(
        _work(Entry(item, f"{path.name}: watchdog work #{n}"))
        for n, item in enumerate(data.get("watchdog_works", list, []), 1)
    )
    group = data.get("watchdog_group", str, None)
    work_group = None if group is None else compile_regex(group, 0, data, "watchdog_group")
    if work_group is not None and "group" not in work_group.groupindex:
        raise data.fail("field 'watchdog_group' must have a named group 'group'")
    return CollectiveFrames(frames, frozenset(data.strings("collectives")), works, work_group)


def _pattern_entry(entry: Entry, kind: str, group: str) -> tuple[str, Entry, re.Pattern[str]]:
    """An entry's id, the entry renamed after it for error messages, and its pattern, which
    must name `group`: the part of the line the entry exists to read."""
    ident = entry.get("id", str)
    entry = Entry(entry.data, f"{entry.where.rsplit(':', 1)[0]}: {kind} '{ident}'")
    pattern = compile_regex(entry.get("pattern", str), 0, entry, "pattern")
    if group not in pattern.groupindex:
        raise entry.fail(f"field 'pattern' must have a named group '{group}'")
    return ident, entry, pattern


def _frame(entry: Entry) -> FramePattern:
    ident, entry, pattern = _pattern_entry(entry, "frame", "op")
    examples = []
    for example in entry.get("examples", list, []):
        if not (isinstance(example, list) and len(example) == 2):
            raise entry.fail("each example must be [frame line, op]")
        examples.append((str(example[0]), str(example[1])))
    return FramePattern(
        ident, pattern, tuple(examples), entry.strings("counterexamples", required=False)
    )


def _work(entry: Entry) -> WorkPattern:
    ident, entry, pattern = _pattern_entry(entry, "watchdog work", "seq")
    examples = []
    for example in entry.get("examples", list, []):
        if not (isinstance(example, list) and len(example) == 4):
            raise entry.fail("each example must be [line, seq, op or null, group or null]")
        line, seq, op, group = example
        named = NamedWork(int(seq), None if op is None else str(op), _or_none(group))
        examples.append((str(line), named))
    return WorkPattern(
        ident, pattern, tuple(examples), entry.strings("counterexamples", required=False)
    )


def _or_none(value: object) -> str | None:
    return None if value is None else str(value)


def named_work(line: str) -> NamedWork | None:
    """The work a watchdog line says timed out, or None for any other line."""
    known = load_frames()
    for item in known.works:
        found = item.pattern.search(line)
        if found:
            return _named(found, known.work_group)
    return None


def _named(found: re.Match[str], work_group: re.Pattern[str] | None) -> NamedWork:
    """The work a pattern found, in the process group a `[PG ...]` before it names."""
    op = found.groupdict().get("op")
    prefix = work_group.search(found.string, 0, found.start()) if work_group else None
    return NamedWork(int(found["seq"]), op, prefix["group"] if prefix else None)


def frame_call(frame: str) -> str | None:
    """The collective-API function a frame line is in (`all_reduce`), or None when the frame
    is not in a collective API or the function is not one every rank enters together."""
    known = load_frames()
    for item in known.frames:
        found = item.pattern.search(frame)
        if found:
            op = found.group("op")
            return op if op in known.collectives else None
    return None


def check_examples() -> list[str]:
    """Every example that does not give its op and every counterexample that matches."""
    problems = []
    for item in load_frames().frames:
        for line, op in item.examples:
            found = item.pattern.search(line)
            if not found or found.group("op") != op:
                problems.append(f"{item.id}: example {line!r} should give {op!r}")
        problems += [
            f"{item.id}: counterexample {line!r} matched"
            for line in item.counterexamples
            if item.pattern.search(line)
        ]
    known = load_frames()
    for work in known.works:
        for line, named in work.examples:
            found = work.pattern.search(line)
            if not found or _named(found, known.work_group) != named:
                problems.append(f"{work.id}: example {line!r} should give {named}")
        problems += [
            f"{work.id}: counterexample {line!r} matched"
            for line in work.counterexamples
            if work.pattern.search(line)
        ]
    return problems
