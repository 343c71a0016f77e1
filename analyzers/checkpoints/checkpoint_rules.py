"""The checkpoint rules, read from `knowledge/checkpoints.yaml` or a user's regex::

    - id: layer_done
      role: layer
      pattern: '(?i)layer(?:[ _-]?|[ ]?=[ ]?)(?P<layer>\\d+) (?P<verb>done|finished|completed?)...'
      text: 'layer {layer} {verb}'
      examples:
        - ['rank0 | step 3 | layer 7 done', 'layer 7 done']

The file is data, so a wrong entry (an unknown role, a bad regex, a text that names a group
the regex lacks, a duplicate id) fails loudly when it is loaded, naming the file and the
entry, instead of quietly missing checkpoints later; a user's regex (per incident or
site-wide) is checked here too, before any line is read with it. A rule builds what it finds
in a message (`CheckpointHit`), so that is defined beside it; which rule a line meets is the
matcher's business (`patterns.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from analyzers.checkpoints.launcher_ends import EndRule, read_end_rule
from analyzers.core import regex_programs
from analyzers.core.saferegex import UnsafeRegex, compile_user_regex
from analyzers.core.signal_names import Names, expand, load_signal_names
from analyzers.core.yamlcheck import parse_yaml_file

KNOWLEDGE = Path(__file__).parents[1] / "knowledge" / "checkpoints.yaml"
ROLES = frozenset(
    {
        "layer",
        "layer_start",
        "layer_part",
        "submodule",
        "phase",
        "success",
        "wait",
        "send",
        "custom",
        "train_step",
        "train_step_start",
        "request_start",
        "group",
    }
)
TRAIN_ROLES = frozenset({"train_step", "train_step_start"})
_SPACES = regex_programs.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class CheckpointHit:
    """What a line is: the normalised text, its role and, for layer lines, the layer."""

    text: str
    role: str
    counted: bool = True
    layer: int | None = None
    step: int | None = None  # a decode step a phase line closes, a training step its line
    peer: int | None = None  # the rank a wait line names
    opens_decode: bool = False  # a phase line after which the decode loop's first step runs
    request: int | None = None  # the request a server's phase line is tagged with
    in_step: bool = False  # a phase a training step holds (a pipeline stage's microbatch)
    # a line many jobs print on one rank only (a checkpoint save): kept only when every rank
    # with progress prints such lines (analyzers/timeline/rank_sequences.py)
    shared: bool = False
    sends_to: int | None = None  # the rank a wait line says it sends to (a ring exchange)


@dataclass(frozen=True, slots=True)
class CheckpointRule:
    id: str
    role: str
    regex: re.Pattern[str]
    text: str | None = None
    counted: bool = True
    examples: tuple[tuple[str, str], ...] = ()
    counterexamples: tuple[str, ...] = ()
    user: bool = False
    opens_decode: bool = False
    in_step: bool = False
    shared: bool = False

    def hit(self, message: str) -> CheckpointHit | None:
        found = self.regex.search(message) if self.user else self.regex.fullmatch(message)
        if found is None:
            return None
        text = collapse(self._text(found))
        groups = found.groupdict()
        return CheckpointHit(
            text,
            self.role,
            self.counted,
            _number(groups.get("layer")),
            _number(groups.get("step")),
            _number(groups.get("peer")),
            self.opens_decode,
            _number(groups.get("request")),
            self.in_step,
            self.shared,
            _number(groups.get("to")),
        )

    def _text(self, found: re.Match[str]) -> str:
        if self.text is not None:
            return self.text.format(**_values(found.groupdict()))
        if "checkpoint" in self.regex.groupindex:
            return found.group("checkpoint") or found.group(0)
        return found.group(0)


def _values(groups: dict[str, str | None]) -> dict[str, str | None]:
    """The groups as the text shows them: a number by its value, so a job that pads its
    counters to a width (`layer 02 norm ok`, `[step 007]`) names the same layer and step as
    one that does not (`layer 2 / norm ok`). docs/labelling.md#training-steps"""
    return {
        name: str(int(value))
        if value is not None and value.isascii() and value.isdigit()
        else value
        for name, value in groups.items()
    }


@dataclass(frozen=True, slots=True)
class KilledRule:
    id: str
    regex: re.Pattern[str]
    examples: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The validated content of `knowledge/checkpoints.yaml`."""

    prefix: re.Pattern[str]
    rules: tuple[CheckpointRule, ...]
    termination_signals: frozenset[str]
    killed_lines: tuple[KilledRule, ...]
    teardown_signals: frozenset[str] = frozenset()
    launcher_ends: tuple[EndRule, ...] = ()


@cache
def load_knowledge(path: Path = KNOWLEDGE) -> Knowledge:
    """Read and validate the checkpoint knowledge; a broken file fails loudly at load."""
    data = parse_yaml_file(path)
    _require(isinstance(data, dict), path, "top level must be a mapping")
    prefixes = [_compile(p, path, "prefixes") for p in _entries(data, "prefixes", path)]
    rules = tuple(_rule(entry, path) for entry in _entries(data, "checkpoints", path))
    status = data.get("status") or {}
    # the shell's words for a death in each language, shared with the rules that read it
    words = load_signal_names(path.parent)
    killed = tuple(
        KilledRule(e["id"], _compile(e, path, "killed_lines", words), tuple(e.get("examples", ())))
        for e in status.get("killed_lines", ())
    )
    return Knowledge(
        prefix=regex_programs.compile("|".join(f"(?:{p.pattern})" for p in prefixes)),
        rules=rules,
        termination_signals=frozenset(status.get("termination_signals", ())),
        killed_lines=killed,
        teardown_signals=frozenset(status.get("teardown_signals", ())),
        launcher_ends=tuple(
            read_end_rule(e, _compile(e, path, "launcher_ends", words), path, words)
            for e in status.get("launcher_ends", ())
        ),
    )


def _entries(data: Mapping[str, Any], key: str, path: Path) -> list[Mapping[str, Any]]:
    entries = data.get(key)
    _require(isinstance(entries, list) and entries, path, f"'{key}' must be a non-empty list")
    for entry in entries:
        _require(isinstance(entry, dict) and "id" in entry, path, f"'{key}' entry without id")
    ids = [entry["id"] for entry in entries]
    _require(len(ids) == len(set(ids)), path, f"duplicate ids in '{key}'")
    return entries


def _rule(entry: Mapping[str, Any], path: Path) -> CheckpointRule:
    role = entry.get("role")
    _require(role in ROLES, path, f"checkpoint {entry['id']}: unknown role {role!r}")
    regex = _compile(entry, path, "checkpoints")
    text = entry.get("text")
    if text is not None:
        unknown = set(re.findall(r"{(\w+)}", text)) - set(regex.groupindex)
        _require(not unknown, path, f"checkpoint {entry['id']}: text uses unknown {unknown}")
    return CheckpointRule(
        id=entry["id"],
        role=role,
        regex=regex,
        text=text,
        counted=bool(entry.get("counted", True)),
        examples=tuple((line, expected) for line, expected in entry.get("examples", ())),
        counterexamples=tuple(entry.get("counterexamples", ())),
        opens_decode=bool(entry.get("opens_decode", False)),
        in_step=bool(entry.get("in_step", False)),
        shared=bool(entry.get("shared", False)),
    )


def _compile(
    entry: Mapping[str, Any], path: Path, section: str, words: Names | None = None
) -> re.Pattern[str]:
    """The entry's regex, with each `{{name}}` standing for a list of `signal_names.yaml` when
    `words` are given."""
    try:
        pattern = entry["pattern"]
        if words is not None:
            pattern = expand(pattern, words, f"{path.name}: {section} entry {entry['id']}")
        return regex_programs.compile(pattern)
    except (KeyError, TypeError, re.error) as error:
        raise ValueError(f"{path}: {section} entry {entry['id']}: bad pattern: {error}") from None


def _require(condition: bool, path: Path, message: str) -> None:
    if not condition:
        raise ValueError(f"{path}: {message}")


def user_rule(position: int, source: str) -> CheckpointRule:
    """A user regex as a rule; bad input raises ValueError naming the pattern."""
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"checkpoint pattern {source!r} is empty")
    try:  # linear time: anyone who can re-analyze an incident writes these
        regex = compile_user_regex(source)
    except UnsafeRegex as error:
        raise ValueError(f"checkpoint pattern {error}") from None
    if regex.search(""):
        raise ValueError(f"checkpoint pattern {source!r} matches an empty line")
    role = "layer" if "layer" in regex.groupindex else "custom"
    return CheckpointRule(id=f"user-{position}", role=role, regex=regex, user=True)


def collapse(text: str) -> str:
    """A checkpoint text with its whitespace collapsed and its closing `.` or `!` dropped."""
    return _SPACES.sub(" ", text).strip().rstrip(".!").strip()


def _number(digits: str | None) -> int | None:
    """A layer or step number; absurd digit strings (a corrupted line) are no number."""
    return int(digits) if digits and len(digits) <= 9 else None
