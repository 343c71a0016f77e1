"""The library of known failures and how an incident is matched against it.

Cases are data: `analyzers/knowledge/cases/<topic>.yaml`, each file a `cases:` list. A case
names the signatures (regexes over error messages such as
``EZ9999 ... HCCL_BUFFSIZE is too SMALL, maxBs = 914``), codes and operators that identify
it, its category from the taxonomy, and the root cause, fix and checks a user needs.

Matching is deterministic: every case scores points for signatures found in the first
causal error (more) or any other error line (less), for shared error codes (rare codes
count more than ones found in many cases), for shared operators, for the same category,
and for being linked from the diagnosis-tree nodes the incident walked through.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from analyzers.types import CaseMatch, Diagnosis, EventKind, FileScan

KNOWLEDGE = Path(__file__).parent / "knowledge"
CASES_DIR = KNOWLEDGE / "cases"
SCHEMA = Path(__file__).parent / "schema" / "report.schema.json"

HARDWARE = frozenset({"A2", "A3", "310P", "any"})
STRATEGIES = frozenset(
    {
        "operator_fallback",
        "parameter_fix",
        "path_unification",
        "config_downgrade",
        "environment_fix",
        "collect_more",
    }
)
SLUG = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")

_REQUIRED_TEXT = ("id", "title", "category", "root_cause", "fix")
_LISTS = (
    "symptoms",
    "signatures",
    "codes",
    "operators",
    "hardware",
    "verify",
    "references",
    "tags",
    "strategy",
)


class CaseError(ValueError):
    """The case library's data is malformed; the message names the file and the case."""


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    title: str
    category: str
    root_cause: str
    fix: str
    symptoms: tuple[str, ...] = ()
    signatures: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    operators: tuple[str, ...] = ()
    hardware: tuple[str, ...] = ("any",)
    verify: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    strategy: tuple[str, ...] = ()
    source: str = ""
    patterns: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the web app (seeding the Case table, the API)."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self) if f.name != "patterns")
        return {name: list(v) if isinstance(v, tuple) else v for name, v in values}


# ----------------------------------------------------------------------------- loading


@lru_cache(maxsize=1)
def taxonomy() -> frozenset[str]:
    """The category labels, read from the report schema so there is one list."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return frozenset(schema["properties"]["diagnosis"]["properties"]["category"]["enum"])


def load_cases(directory: Path | None = None) -> tuple[Case, ...]:
    """All cases, validated; the default library is read once per process."""
    if directory is None:
        return _default_cases()
    return _load_dir(Path(directory))


@lru_cache(maxsize=1)
def _default_cases() -> tuple[Case, ...]:
    return _load_dir(CASES_DIR)


def _load_dir(directory: Path) -> tuple[Case, ...]:
    files = sorted(directory.glob("*.yaml"))
    if not files:
        raise CaseError(f"{directory}: no case files (*.yaml)")
    cases: list[Case] = []
    for path in files:
        data = read_yaml(path)
        cases.extend(parse_cases(data, source=path.name))
    _check_unique(cases)
    return tuple(cases)


def read_yaml(path: Path) -> Any:
    """Parse a knowledge file, with libyaml's C parser when it is installed (10x faster)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)


def parse_cases(data: Any, source: str = "<string>") -> list[Case]:
    """Validate one file's data (`{"cases": [...]}`) and build its cases."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise CaseError(f"{source}: expected a mapping with a 'cases' list")
    cases = [_parse_case(raw, source, i) for i, raw in enumerate(data["cases"])]
    _check_unique(cases)
    return cases


def _parse_case(raw: Any, source: str, index: int) -> Case:
    where = f"{source}: case #{index + 1}"
    if not isinstance(raw, Mapping):
        raise CaseError(f"{where}: expected a mapping")
    where = f"{source}: case {raw.get('id', '#' + str(index + 1))!r}"
    unknown = set(raw) - set(_REQUIRED_TEXT) - set(_LISTS)
    if unknown:
        raise CaseError(f"{where}: unknown field(s) {sorted(unknown)}")
    values: dict[str, Any] = {name: _text(raw, name, where) for name in _REQUIRED_TEXT}
    values.update({name: _strings(raw, name, where) for name in _LISTS if name in raw})
    _check_values(values, where)
    return Case(**values, source=source, patterns=_compile(values.get("signatures", ()), where))


def _text(raw: Mapping[str, Any], name: str, where: str) -> str:
    value = raw.get(name)
    if not isinstance(value, str) or not value.strip():
        raise CaseError(f"{where}: '{name}' must be a non-empty string")
    return value.strip()


def _strings(raw: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
    value = raw[name]
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise CaseError(f"{where}: '{name}' must be a list of strings")
    return tuple(str(v) for v in value)


def _check_values(values: Mapping[str, Any], where: str) -> None:
    if not SLUG.match(values["id"]):
        raise CaseError(f"{where}: id must be a lowercase slug (letters, digits, '-')")
    if values["category"] not in taxonomy():
        raise CaseError(f"{where}: category {values['category']!r} is not in the taxonomy")
    bad_hw = set(values.get("hardware", ())) - HARDWARE
    if bad_hw:
        raise CaseError(f"{where}: hardware {sorted(bad_hw)} not in {sorted(HARDWARE)}")
    bad_strategy = set(values.get("strategy", ())) - STRATEGIES
    if bad_strategy:
        raise CaseError(f"{where}: strategy {sorted(bad_strategy)} not in {sorted(STRATEGIES)}")


def _compile(signatures: Iterable[str], where: str) -> tuple[re.Pattern[str], ...]:
    try:
        return tuple(re.compile(s, re.IGNORECASE) for s in signatures)
    except re.error as error:
        raise CaseError(f"{where}: bad signature regex: {error}") from error


def _check_unique(cases: Sequence[Case]) -> None:
    seen: dict[str, str] = {}
    for case in cases:
        if case.id in seen:
            raise CaseError(
                f"{case.source}: duplicate case id {case.id!r} (also in {seen[case.id]})"
            )
        seen[case.id] = case.source


# --------------------------------------------------------------------------- operators

# How operator names look in error text: aclnn entry points, torch_npu functions, the
# "current working operator" note, tiling and launch failures.
OPERATOR_PATTERNS = (
    re.compile(r"\b(aclnn[A-Z]\w+)"),
    re.compile(r"\b(_?npu_[a-z][a-z0-9_]+)"),
    re.compile(r"operator name is (\w+)"),
    re.compile(r"opType: \d+, (\w+)"),
    re.compile(r"launch failed for (\w+)"),
    re.compile(r"\b([A-Z][A-Za-z0-9]+) do tiling failed"),
)
# torch_npu helpers that show up in the same text but are not device operators.
_NOT_OPERATORS = re.compile(r"synchron|^_?npu_smi$|^_?npu_set_device$", re.IGNORECASE)


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
) -> list[CaseMatch]:
    """The known cases most like this incident, best first (score 0..1, ties by id).

    `tree_links` maps tree node ids to their case ids; by default it comes from the tree.
    """
    if diagnosis.category == "healthy":
        return []
    library = tuple(cases) if cases is not None else load_cases()
    links = _path_links(diagnosis.tree_path, tree_links)
    text = incident_text(diagnosis, scans)
    rare = _rare_codes(library)
    scored = [(_points(c, text, diagnosis.category, rare, links), c) for c in library]
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
    cause_lines, other_lines = _unique(cause), _unique(other)[:MAX_LINES]
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


_NUMBER = re.compile(r"\d+")


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
        from analyzers.tree import case_links  # the tree validates case ids, so it imports us

        links = case_links()
    bonus: dict[str, float] = {}
    for node in path[:-1]:
        bonus.update(dict.fromkeys(links.get(node, ()), TREE_PATH_LINK))
    bonus.update(dict.fromkeys(links.get(path[-1], ()), TREE_LEAF_LINK))
    return bonus
