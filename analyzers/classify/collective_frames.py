"""Which collective a rank was in when its wait failed, from its traceback's innermost frame.

A collective timeout (`Timed out waiting 15000ms for recv operation to complete`) reads the
same on every rank; the traceback under it says where each rank was waiting. The frame
patterns and the list of calls that every rank of a group enters together are data
(`knowledge/collectives.yaml`), so another collective API is one entry there.
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
class CollectiveFrames:
    frames: tuple[FramePattern, ...]
    collectives: frozenset[str]


@cache
def load_frames(path: Path = KNOWLEDGE_DIR / "collectives.yaml") -> CollectiveFrames:
    data = Entry(read_yaml(path), path.name)
    frames = tuple(
        _frame(Entry(item, f"{path.name}: frame #{n}"))
        for n, item in enumerate(data.get("frames", list), 1)
    )
    return CollectiveFrames(frames, frozenset(data.strings("collectives")))


def _frame(entry: Entry) -> FramePattern:
    ident = entry.get("id", str)
    entry = Entry(entry.data, f"{entry.where.rsplit(':', 1)[0]}: frame '{ident}'")
    pattern = compile_regex(entry.get("pattern", str), 0, entry, "pattern")
    if "op" not in pattern.groupindex:
        raise entry.fail("field 'pattern' must have a named group 'op'")
    examples = []
    for example in entry.get("examples", list, []):
        if not (isinstance(example, list) and len(example) == 2):
            raise entry.fail("each example must be [frame line, op]")
        examples.append((str(example[0]), str(example[1])))
    return FramePattern(
        ident, pattern, tuple(examples), entry.strings("counterexamples", required=False)
    )


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
    return problems
