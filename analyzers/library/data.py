"""The library of known failures: validated case data from `analyzers/knowledge/cases/`.

Each `<topic>.yaml` holds a `cases:` list. A case names the signatures (regexes over error
messages such as ``HCCL_BUFFSIZE is too SMALL, maxBs = 914``), codes and operators that
identify it, its category from the taxonomy, and the root cause, fix and checks a user
needs. `terms_zh` lists the short Chinese terms an engineer would type to find the case
(显存不足, 通信超时). The text people read has Chinese siblings (`title_zh`, `symptoms_zh`,
`root_cause_zh`, `fix_zh`, `verify_zh`; see `analyzers.core.bilingual`) for the web UI.
Loading rejects malformed data with a message naming the file and the case.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.bilingual import BilingualError, zh_key, zh_list, zh_text
from analyzers.core.knowledge_cache import cached
from analyzers.core.saferegex import UnsafeRegex, compile_user_regex
from analyzers.core.yamlcheck import parse_yaml_file

KNOWLEDGE = Path(__file__).parents[1] / "knowledge"
CASES_DIR = KNOWLEDGE / "cases"
SCHEMA = Path(__file__).parents[1] / "schema" / "report.schema.json"

# Ascend generations, "ascend" (any of them), "cuda" (NVIDIA GPUs), "cpu" (a job on CPUs
# alone, its process group gloo's) or "any".
GENERATIONS = ("A2", "A3", "310P")
HARDWARE = frozenset({*GENERATIONS, "ascend", "cuda", "cpu", "any"})
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
SLUG = regex_programs.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
CJK_CHAR = regex_programs.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
MAX_TERM_ZH = 20

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
    "terms_zh",
)
# The fields people read, each with a Chinese sibling (`title_zh`, ...).
TRANSLATED_TEXT = ("title", "root_cause", "fix")
TRANSLATED_LISTS = ("symptoms", "verify")
_ZH_FIELDS = tuple(zh_key(name) for name in (*TRANSLATED_TEXT, *TRANSLATED_LISTS))


def hardware_fits(wanted: str) -> frozenset[str]:
    """The hardware tags of the cases that fit `wanted` hardware: an A2 job is helped by A2,
    Ascend-wide and general cases; a CUDA job by CUDA and general ones, a CPU job by CPU and
    general ones."""
    if wanted in GENERATIONS:
        return frozenset({wanted, "ascend", "any"})
    if wanted == "ascend":
        return frozenset({*GENERATIONS, "ascend", "any"})
    return frozenset({wanted, "any"})


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
    terms_zh: tuple[str, ...] = ()
    title_zh: str | None = None
    root_cause_zh: str | None = None
    fix_zh: str | None = None
    symptoms_zh: tuple[str, ...] | None = None
    verify_zh: tuple[str, ...] | None = None
    source: str = ""
    patterns: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the web app (seeding the Case table, the API)."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self) if f.name != "patterns")
        return {name: list(v) if isinstance(v, tuple) else v for name, v in values}

    def chinese(self) -> dict[str, Any]:
        """The Chinese text present, keyed by the English field names (`title`, ...)."""
        values = ((n, getattr(self, zh_key(n))) for n in (*TRANSLATED_TEXT, *TRANSLATED_LISTS))
        return {name: list(v) if isinstance(v, tuple) else v for name, v in values if v}


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
    return cached("cases", sorted(CASES_DIR.glob("*.yaml")), lambda: _load_dir(CASES_DIR))


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
    """Parse a knowledge file (a `yaml.YAMLError` is the caller's to word)."""
    return parse_yaml_file(path)


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
    unknown = set(raw) - set(_REQUIRED_TEXT) - set(_LISTS) - set(_ZH_FIELDS)
    if unknown:
        raise CaseError(f"{where}: unknown field(s) {sorted(unknown)}")
    values: dict[str, Any] = {name: _text(raw, name, where) for name in _REQUIRED_TEXT}
    values.update({name: _strings(raw, name, where) for name in _LISTS if name in raw})
    _check_values(values, where)
    values.update(_chinese(raw, values, where))
    return Case(**values, source=source, patterns=_compile(values.get("signatures", ()), where))


def _chinese(raw: Mapping[str, Any], values: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The Chinese siblings present, checked against their English fields."""
    try:
        found: dict[str, Any] = {
            zh_key(name): zh_text(raw, name, values[name], where) for name in TRANSLATED_TEXT
        }
        found.update(
            {zh_key(n): zh_list(raw, n, values.get(n, ()), where) for n in TRANSLATED_LISTS}
        )
    except BilingualError as error:
        raise CaseError(str(error)) from error
    return found


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
    _check_terms_zh(values.get("terms_zh", ()), where)


def _check_terms_zh(terms: Sequence[str], where: str) -> None:
    """Search terms, not prose: short, each with Chinese in it, none twice."""
    for term in terms:
        if not CJK_CHAR.search(term) or term != term.strip() or len(term) > MAX_TERM_ZH:
            raise CaseError(
                f"{where}: terms_zh {term!r} must be a short term (at most {MAX_TERM_ZH}"
                " characters, no surrounding spaces) containing Chinese"
            )
    if len(set(terms)) != len(terms):
        raise CaseError(f"{where}: terms_zh lists a term twice")


def _compile(signatures: Iterable[str], where: str) -> tuple[re.Pattern[str], ...]:
    """Signatures run on every analysis, against log text: linear-time regexes only."""
    try:
        return tuple(compile_user_regex(s, ignore_case=True) for s in signatures)
    except UnsafeRegex as error:
        raise CaseError(f"{where}: bad signature regex: {error}") from error


def _check_unique(cases: Sequence[Case]) -> None:
    seen: dict[str, str] = {}
    for case in cases:
        if case.id in seen:
            raise CaseError(
                f"{case.source}: duplicate case id {case.id!r} (also in {seen[case.id]})"
            )
        seen[case.id] = case.source
