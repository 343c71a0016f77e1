"""Load the knowledge files once, check them, and compile their regexes.

The failure knowledge is data (`knowledge/signatures.yaml`, `error_codes.yaml`,
`actions.yaml`), so a wrong field must fail loudly at start with the file, the entry and
the field in the message, never silently mislabel a job later. A signature line reads::

    - id: oom.device_out_of_memory
      category: oom
      role: cause
      regex: '(?:NPU|CUDA) out of memory\\.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

KNOWLEDGE_DIR = Path(__file__).parent / "knowledge"

ANY_SUBSYSTEM = (
    "none",
    "operator",
    "communication",
    "memory",
    "framework",
    "stream",
    "device",
    "environment",
)
TAXONOMY: dict[str, tuple[str, ...]] = {
    "healthy": ("none",),
    "aicore_timeout": ("operator",),
    "hccl": ("communication",),
    "oom": ("memory",),
    "shape_mismatch": ("framework",),
    "op_constraint": ("operator",),
    "operator": ("operator",),
    "weight_load": ("framework",),
    "config": ("framework",),
    "stream_sync": ("stream",),
    "device_fault": ("device",),
    "driver_env": ("environment",),
    "hang": ("communication", "framework"),
    "other": ANY_SUBSYSTEM,
}
ROLES = ("cause", "symptom", "wrapper", "cascade", "generic")
CODE_TABLES = ("acl", "hccl", "cann", "pta")


class KnowledgeError(ValueError):
    """A knowledge file is malformed; the message names the file, entry and field."""


@dataclass(frozen=True, slots=True)
class Signature:
    id: str
    title: str
    category: str
    subsystem: str
    role: str
    weight: int
    keywords: tuple[str, ...]
    regex: re.Pattern[str]
    ignore_case: bool = False
    category_from_code: bool = False
    role_from_code: bool = False
    code_table: str | None = None
    culprit: str | None = None
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()
    needles: tuple[str, ...] = ()  # keywords as compared (lower-case when ignore_case)

    def search(self, message: str) -> re.Match[str] | None:
        """The regex match, after the cheap keyword test says it can match at all."""
        haystack = message.lower() if self.ignore_case else message
        if not any(needle in haystack for needle in self.needles):
            return None
        return self.regex.search(message)


@dataclass(frozen=True, slots=True)
class CodeInfo:
    code: str
    table: str
    meaning: str
    cause: str
    name: str | None = None
    category: str | None = None
    subsystem: str | None = None
    role: str | None = None

    @property
    def label(self) -> str:
        """How the code is shown: HCCL return codes by name, the rest as printed."""
        return self.name if self.table == "hccl" and self.name else self.code


@dataclass(frozen=True, slots=True)
class CodeTable:
    tables: Mapping[str, Mapping[str, CodeInfo]]
    families: Mapping[str, CodeInfo]

    def lookup(self, code: str, table: str | None = None) -> CodeInfo | None:
        """Meaning of `code`; without a table, guess it from the code's shape."""
        table = table or guess_table(code)
        if table is None:
            return None
        found = self.tables.get(table, {}).get(code)
        if found is None and table == "cann":
            found = self.families.get(code[:2])
        return found

    def lookup_label(self, label: str) -> CodeInfo | None:
        """Like `lookup`, also accepting HCCL return codes by name (`HCCL_E_TIMEOUT`)."""
        if label.startswith("HCCL_"):
            return next((i for i in self.tables["hccl"].values() if i.name == label), None)
        return self.lookup(label)


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    text: str
    unless_env: Mapping[str, str]
    unless_file_kind: str | None = None
    when_text: re.Pattern[str] | None = None
    multi_rank_only: bool = False


@dataclass(frozen=True, slots=True)
class ActionBook:
    categories: Mapping[str, tuple[Action, ...]]
    signatures: Mapping[str, tuple[Action, ...]]
    codes: Mapping[str, tuple[Action, ...]]


class SignatureIndex:
    """Which signatures can match a line, from one pass of substring tests over the line.

    Every keyword is tested once per line (lower-cased, so the result is a superset for
    case-sensitive signatures, whose own `search` then decides).
    """

    def __init__(self, signatures: tuple[Signature, ...]) -> None:
        self._signatures = signatures
        by_needle: dict[str, list[int]] = {}
        for position, signature in enumerate(signatures):
            for keyword in signature.keywords:
                by_needle.setdefault(keyword.lower(), []).append(position)
        self._needles = tuple(by_needle)
        self._by_needle = by_needle

    def candidates(self, message: str) -> list[Signature]:
        low = message.lower()
        hits = {p for needle in self._needles if needle in low for p in self._by_needle[needle]}
        return [self._signatures[p] for p in sorted(hits)]


@dataclass(frozen=True, slots=True)
class Knowledge:
    signatures: tuple[Signature, ...]
    codes: CodeTable
    actions: ActionBook
    index: SignatureIndex

    def signature(self, signature_id: str) -> Signature:
        return next(sig for sig in self.signatures if sig.id == signature_id)

    def keywords(self) -> tuple[str, ...]:
        """Every keyword once, for prefilters and the benchmark's grep alternation."""
        seen: dict[str, None] = {}
        for sig in self.signatures:
            seen.update(dict.fromkeys(sig.keywords))
        return tuple(seen)

    def grep_alternation(self) -> str:
        """An extended-regex (`grep -E`) alternation of the keywords."""
        return "|".join(re.sub(r"([.[\]()*+?{}|^$\\])", r"\\\1", k) for k in self.keywords())


_CODE_SHAPES = (
    ("pta", re.compile(r"ERR\d{5}")),
    ("cann", re.compile(r"E[A-Z0-9]\d{4}")),
    ("acl", re.compile(r"\d{6}")),
)


def guess_table(code: str) -> str | None:
    return next((name for name, shape in _CODE_SHAPES if shape.fullmatch(code)), None)


def normalise_code(raw: str) -> str:
    """One spelling per code: upper-case letters, lower-case hex, no padding."""
    code = raw.strip().strip("[]().,:;")
    return code.lower() if code.lower().startswith("0x") else code.upper()


@cache
def load_knowledge(directory: Path = KNOWLEDGE_DIR) -> Knowledge:
    """Read, check and compile the three knowledge files (once per process)."""
    signatures = load_signatures(directory / "signatures.yaml")
    return Knowledge(
        signatures=signatures,
        codes=load_codes(directory / "error_codes.yaml"),
        actions=load_actions(directory / "actions.yaml"),
        index=SignatureIndex(signatures),
    )


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise KnowledgeError(f"{path.name}: cannot read: {error}") from error


class _Entry:
    """Typed access to one YAML mapping, with errors that say where the problem is."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise KnowledgeError(f"{where}: expected a mapping, got {type(data).__name__}")
        self.data, self.where = data, where

    def fail(self, message: str) -> KnowledgeError:
        return KnowledgeError(f"{self.where}: {message}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.data or self.data[key] is None:
            if default is ...:
                raise self.fail(f"missing field '{key}'")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(f"field '{key}' must be {_kind_name(kind)}, got {value!r}")
        return value

    def choice(self, key: str, options: tuple[str, ...] | Mapping[str, Any], default: Any = ...):
        value = self.get(key, str, default)
        if value is not None and value is not default and value not in options:
            raise self.fail(f"field '{key}' is {value!r}; expected one of {', '.join(options)}")
        return value

    def strings(self, key: str, *, required: bool = True) -> tuple[str, ...]:
        values = self.get(key, list, ... if required else [])
        if required and not values:
            raise self.fail(f"field '{key}' must list at least one entry")
        if not all(isinstance(v, str) and v for v in values):
            raise self.fail(f"field '{key}' must list non-empty strings")
        return tuple(values)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def _compile(pattern: str, flags: int, entry: _Entry, key: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, flags)
    except re.error as error:
        raise entry.fail(f"field '{key}' is not a valid regex: {error}") from error


# ---------------------------------------------------------------- signatures


def load_signatures(path: Path) -> tuple[Signature, ...]:
    data = _Entry(_read_yaml(path), path.name)
    raw = data.get("signatures", list)
    signatures = tuple(
        _signature(_Entry(item, f"{path.name}: signature #{n + 1}")) for n, item in enumerate(raw)
    )
    _reject_duplicates([sig.id for sig in signatures], path.name, "signature id")
    return signatures


def _signature(entry: _Entry) -> Signature:
    sig_id = entry.get("id", str)
    entry.where = f"{entry.where.split(': ')[0]}: signature '{sig_id}'"
    category = entry.choice("category", TAXONOMY)
    ignore_case = entry.get("ignore_case", bool, False)
    regex = _compile(entry.get("regex", str), re.IGNORECASE if ignore_case else 0, entry, "regex")
    keywords = entry.strings("keywords")
    signature = Signature(
        id=sig_id,
        title=entry.get("title", str),
        category=category,
        subsystem=_subsystem(entry, category),
        role=entry.choice("role", ROLES),
        weight=_weight(entry),
        keywords=keywords,
        needles=tuple(k.lower() for k in keywords) if ignore_case else keywords,
        regex=regex,
        ignore_case=ignore_case,
        category_from_code=entry.get("category_from_code", bool, False),
        role_from_code=entry.get("role_from_code", bool, False),
        code_table=entry.choice("code_table", CODE_TABLES, None),
        culprit=entry.get("culprit", str, None),
        examples=entry.strings("examples"),
        counterexamples=entry.strings("counterexamples"),
    )
    _check_signature_links(signature, entry)
    return signature


def _subsystem(entry: _Entry, category: str) -> str:
    subsystem = entry.choice("subsystem", ANY_SUBSYSTEM)
    if subsystem not in TAXONOMY[category]:
        allowed = ", ".join(TAXONOMY[category])
        raise entry.fail(f"subsystem '{subsystem}' does not fit category '{category}' ({allowed})")
    return subsystem


def _weight(entry: _Entry) -> int:
    weight = entry.get("weight", int)
    if not 1 <= weight <= 100:
        raise entry.fail(f"field 'weight' must be within 1-100, got {weight}")
    return weight


def _check_signature_links(sig: Signature, entry: _Entry) -> None:
    groups = {re.sub(r"\d+$", "", name) for name in sig.regex.groupindex}
    if sig.culprit and sig.culprit not in groups:
        raise entry.fail(f"culprit group '{sig.culprit}' is not a named group of the regex")
    if (sig.category_from_code or sig.role_from_code) and not sig.code_table:
        raise entry.fail("category_from_code/role_from_code need a code_table")


def _reject_duplicates(ids: list[str], where: str, what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise KnowledgeError(f"{where}: duplicate {what} '{item}'")
        seen.add(item)


# ---------------------------------------------------------------- error codes


def load_codes(path: Path) -> CodeTable:
    data = _Entry(_read_yaml(path), path.name)
    tables = {
        table: _code_entries(_Entry(data.get(table, dict), f"{path.name}: {table}"), table)
        for table in CODE_TABLES
    }
    families = _code_entries(_Entry(data.get("families", dict), f"{path.name}: families"), "cann")
    tables["cann"] = {
        code: _inherit(info, families.get(code[:2])) for code, info in tables["cann"].items()
    }
    return CodeTable(tables=tables, families=families)


def _inherit(info: CodeInfo, family: CodeInfo | None) -> CodeInfo:
    """A listed code without its own label takes its family's (EZ9999 -> operator)."""
    if family is None or info.category:
        return info
    return replace(
        info, category=family.category, subsystem=family.subsystem, role=info.role or family.role
    )


def _code_entries(table: _Entry, name: str) -> dict[str, CodeInfo]:
    return {
        str(code): _code_info(_Entry(item, f"{table.where}: '{code}'"), str(code), name)
        for code, item in table.data.items()
    }


def _code_info(entry: _Entry, code: str, table: str) -> CodeInfo:
    category = entry.choice("category", TAXONOMY, None)
    subsystem = entry.choice("subsystem", ANY_SUBSYSTEM, None)
    if category and not subsystem:
        subsystem = TAXONOMY[category][0]
    return CodeInfo(
        code=code,
        table=table,
        meaning=entry.get("meaning", str),
        cause=entry.get("cause", str),
        name=entry.get("name", str, None),
        category=category,
        subsystem=subsystem,
        role=entry.choice("role", ROLES, None),
    )


# ---------------------------------------------------------------- actions


def load_actions(path: Path) -> ActionBook:
    data = _Entry(_read_yaml(path), path.name)
    sections = {
        key: _action_section(_Entry(data.get(key, dict), f"{path.name}: {key}"))
        for key in ("categories", "signatures", "codes")
    }
    unknown = set(sections["categories"]) - set(TAXONOMY)
    if unknown:
        raise KnowledgeError(f"{path.name}: categories: unknown category {sorted(unknown)}")
    return ActionBook(**sections)


def _action_section(section: _Entry) -> dict[str, tuple[Action, ...]]:
    result = {}
    for key, items in section.data.items():
        where = f"{section.where}: '{key}'"
        if not isinstance(items, list) or not items:
            raise KnowledgeError(f"{where}: expected a non-empty list of actions")
        actions = tuple(_action(_Entry(item, f"{where} #{n + 1}")) for n, item in enumerate(items))
        _reject_duplicates([a.id for a in actions], where, "action id")
        result[str(key)] = actions
    return result


def _action(entry: _Entry) -> Action:
    when_text = entry.get("when_text", str, None)
    unless_env = entry.get("unless_env", dict, {})
    return Action(
        id=entry.get("id", str),
        text=" ".join(entry.get("text", str).split()),
        unless_env={str(k): str(v) for k, v in unless_env.items()},
        unless_file_kind=entry.get("unless_file_kind", str, None),
        when_text=_compile(when_text, re.IGNORECASE, entry, "when_text") if when_text else None,
        multi_rank_only=entry.get("multi_rank_only", bool, False),
    )
