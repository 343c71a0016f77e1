"""Matching an incident against the library of known failures (`analyzers.library.data`).

Matching is deterministic: every case scores points for signatures found in the first
causal error (more) or any other error line (less), for shared error codes (rare codes
count more than ones found in many cases), for shared operators, for the same category,
and for being linked from the diagnosis-tree nodes the incident walked through; a case
for other hardware than the incident's counts half. Scores are scaled to 0..1.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from analyzers.classify.accelerator import accelerator_of
from analyzers.core import regex_programs
from analyzers.core.report import CaseMatch, Diagnosis
from analyzers.core.types import EventKind, FileScan
from analyzers.library.data import (
    CASES_DIR,
    HARDWARE,
    KNOWLEDGE,
    STRATEGIES,
    Case,
    CaseError,
    hardware_fits,
    load_cases,
    parse_cases,
    read_yaml,
    taxonomy,
)

__all__ = [
    "CASES_DIR",
    "HARDWARE",
    "KNOWLEDGE",
    "STRATEGIES",
    "Case",
    "CaseError",
    "CaseMatch",
    "find_operators",
    "hardware_of",
    "incident_text",
    "load_cases",
    "match_cases",
    "normalize_operator",
    "parse_cases",
    "read_yaml",
    "taxonomy",
    "template",
]


FROM_SCANS = object()  # `match_cases`: read the accelerator from the scans

# --------------------------------------------------------------------------- operators

# How operator names look in error text: aclnn entry points, torch_npu functions, the
# "current working operator" note, tiling and launch failures.
OPERATOR_PATTERNS = (
    regex_programs.compile(r"\b(aclnn[A-Z]\w+)"),
    regex_programs.compile(r"\b(_?npu_[a-z][a-z0-9_]+)"),
    regex_programs.compile(r"operator name is (\w+)"),
    regex_programs.compile(r"opType: \d+, (\w+)"),
    regex_programs.compile(r"launch failed for (\w+)"),
    regex_programs.compile(r"\b([A-Z][A-Za-z0-9]+) do tiling failed"),
)
# torch_npu helpers that show up in the same text but are not device operators.
_NOT_OPERATORS = regex_programs.compile(r"synchron|^_?npu_smi$|^_?npu_set_device$", re.IGNORECASE)


def find_operators(text: str) -> list[str]:
    """Operator names mentioned in one line, in order of appearance, without repeats."""
    found: list[tuple[int, str]] = []
    for pattern in OPERATOR_PATTERNS:
        found.extend((m.start(1), m.group(1)) for m in pattern.finditer(text))
    names = [name for _, name in sorted(found) if not _NOT_OPERATORS.search(name)]
    return list(dict.fromkeys(names))


def normalize_operator(name: str) -> str:
    """One key for an operator's Python and aclnn spellings and its versions.

    `npu_moe_distribute_dispatch_v2` and `aclnnMoeDistributeDispatchV3` both become
    `moedistributedispatch`.
    """
    key = re.sub(r"^(aclnn|_?npu_)", "", name)
    key = re.sub(r"(_out)?(_symint)?$", "", key)
    key = re.sub(r"_?[vV]\d+$", "", key)
    return key.replace("_", "").lower()


# ---------------------------------------------------------------------------- hardware

# Chip names as npu-smi prints them (or SOC_VERSION-like settings) -> hardware generation.
HARDWARE_NAMES = (
    (regex_programs.compile(r"310P", re.IGNORECASE), "310P"),
    (regex_programs.compile(r"910_?93", re.IGNORECASE), "A3"),
    (regex_programs.compile(r"910_?B", re.IGNORECASE), "A2"),
)


def hardware_of(scans: Sequence[FileScan]) -> str | None:
    """A2, A3 or 310P from npu-smi device names or a chip/SOC setting; None if unknown."""
    for scan in scans:
        devices = (scan.facts.get("npu_smi") or {}).get("devices") or ()
        names = [str(d.get("name") or "") for d in devices if isinstance(d, Mapping)]
        for topic in ("env", "versions"):
            settings = scan.facts.get(topic) or {}
            names += [str(v) for k, v in settings.items() if re.search("soc|chip", str(k), re.I)]
        for name in names:
            for pattern, generation in HARDWARE_NAMES:
                if pattern.search(name):
                    return generation
    return None


# ---------------------------------------------------------------------------- matching

SIGNATURE_IN_CAUSE = 3.0
SIGNATURE_ELSEWHERE = 1.5
SIGNATURE_EXTRA = 0.5
SIGNATURE_CAP = 6.0
RARE_CODE = 2.0
COMMON_CODE = 0.75
CODE_CAP = 4.0
OPERATOR_HIT = 2.5
SAME_CATEGORY = 2.0
TREE_LEAF_LINK = 2.0
TREE_PATH_LINK = 0.5
OTHER_HARDWARE = 0.5
FULL_SCORE = 12.0
MAX_LINES = 4000


@dataclass(frozen=True, slots=True)
class IncidentText:
    """What matching looks at: cause lines, other error lines, codes and operators."""

    cause: str
    other: str
    codes: frozenset[str]
    operators: frozenset[str]


def match_cases(
    diagnosis: Diagnosis,
    scans: Sequence[FileScan],
    limit: int = 5,
    cases: Sequence[Case] | None = None,
    tree_links: Mapping[str, Sequence[str]] | None = None,
    stack: object = FROM_SCANS,
) -> list[CaseMatch]:
    """The known cases most like this incident, best first (score 0..1, ties by id).

    `tree_links` maps tree node ids to their case ids; the pipeline passes the tree's (the tree validates case ids, so it sits above).
    `stack`: the job's accelerator as the pipeline already read it (`accelerator_of`), so
    the scans' lines are not searched twice; read from `scans` when not given.
    """
    if diagnosis.category == "healthy":
        return []
    library = tuple(cases) if cases is not None else load_cases()
    links = _path_links(diagnosis.tree_path, tree_links)
    text = incident_text(diagnosis, scans)
    rare = _rare_codes(library)
    hardware = hardware_of(scans)
    job_stack = stack if stack is None or isinstance(stack, str) else accelerator_of(scans)
    scored = [
        (
            _points(c, text, diagnosis.category, rare, links)
            * _hardware_fit(c, hardware, job_stack),
            c,
        )
        for c in library
    ]
    ranked = sorted(((p, c) for p, c in scored if p > 0), key=lambda pc: (-pc[0], pc[1].id))
    return [
        CaseMatch(c.id, c.title, round(min(p, FULL_SCORE) / FULL_SCORE, 3))
        for p, c in ranked[:limit]
    ]


def incident_text(diagnosis: Diagnosis, scans: Sequence[FileScan]) -> IncidentText:
    cause = [diagnosis.first_error.text] if diagnosis.first_error else []
    cause += [ev.ref.text for ev in diagnosis.evidence if ev.role == "cause"]
    other = [ev.ref.text for ev in diagnosis.evidence if ev.role != "cause"]
    codes = set(diagnosis.error_codes)
    for event in _error_events(scans):
        other.append(event.message or event.text)
        codes.update(event.codes)
    cause_lines = _unique(cause)
    seen = {template(line) for line in cause_lines}
    other_lines = [line for line in _unique(other) if template(line) not in seen][:MAX_LINES]
    operators = {
        normalize_operator(op) for line in cause_lines + other_lines for op in find_operators(line)
    }
    return IncidentText(
        "\n".join(cause_lines), "\n".join(other_lines), frozenset(codes), frozenset(operators)
    )


def _error_events(scans: Sequence[FileScan]) -> Iterable[Any]:
    for scan in scans:
        yield from (e for e in scan.events if e.kind == EventKind.ERROR)


def _unique(lines: Iterable[str]) -> list[str]:
    """One line per template: a cascade repeats one message with other numbers per rank."""
    first: dict[str, str] = {}
    for line in lines:
        if line:
            first.setdefault(template(line), line)
    return list(first.values())


_NUMBER = regex_programs.compile(r"\d+")


def template(line: str) -> str:
    """The line with its numbers blanked (first 300 characters), for grouping repeats."""
    return _NUMBER.sub("#", line[:300])


def _points(
    case: Case, text: IncidentText, category: str, rare: frozenset[str], links: Mapping[str, float]
) -> float:
    evidence = _signature_points(case, text) + _code_points(case, text, rare)
    if any(normalize_operator(op) in text.operators for op in case.operators):
        evidence += OPERATOR_HIT
    link = links.get(case.id, 0.0)
    if evidence == 0 and link < TREE_LEAF_LINK:
        return 0.0
    return evidence + link + (SAME_CATEGORY if case.category == category else 0.0)


def _hardware_fit(case: Case, hardware: str | None, stack: str | None) -> float:
    """Drop a case written for another accelerator stack than the incident's and halve one
    for another Ascend generation (each only when the bundle tells)."""
    if stack is not None and not hardware_fits(stack) & set(case.hardware):
        return 0.0
    if hardware is None or hardware_fits(hardware) & set(case.hardware):
        return 1.0
    return OTHER_HARDWARE


def _signature_points(case: Case, text: IncidentText) -> float:
    """Most for a hit in the cause, less for one elsewhere, a little per further signature
    (several signatures of one case often match the same line)."""
    in_cause = sum(1 for p in case.patterns if p.search(text.cause))
    elsewhere = sum(1 for p in case.patterns if not p.search(text.cause) and p.search(text.other))
    if not in_cause + elsewhere:
        return 0.0
    points = (SIGNATURE_IN_CAUSE if in_cause else 0.0) + (SIGNATURE_ELSEWHERE if elsewhere else 0.0)
    return min(points + SIGNATURE_EXTRA * (in_cause + elsewhere - 1), SIGNATURE_CAP)


def _code_points(case: Case, text: IncidentText, rare: frozenset[str]) -> float:
    shared = [code for code in case.codes if code in text.codes]
    return min(sum(RARE_CODE if c in rare else COMMON_CODE for c in shared), CODE_CAP)


def _rare_codes(library: Sequence[Case]) -> frozenset[str]:
    """Codes that point at few cases; a code listed by many (EZ9999) tells little."""
    counts = Counter(code for case in library for code in set(case.codes))
    limit = max(2, math.ceil(len(library) * 0.04))
    return frozenset(code for code, n in counts.items() if n <= limit)


def _path_links(path: Sequence[str], links: Mapping[str, Sequence[str]] | None) -> dict[str, float]:
    """Bonus per case id: full for the cases of the path's last node, small for the rest."""
    if not path:
        return {}
    if links is None:
        links = {}
    bonus: dict[str, float] = {}
    for node in path[:-1]:
        bonus.update(dict.fromkeys(links.get(node, ()), TREE_PATH_LINK))
    bonus.update(dict.fromkeys(links.get(path[-1], ()), TREE_LEAF_LINK))
    return bonus
