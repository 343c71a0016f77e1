"""The error-code table: what the numbers and codes torch_npu, CANN and HCCL print mean.

`knowledge/error_codes.yaml` holds four tables (acl numbers such as 507014, HCCL return
codes 0-24, CANN error-manager codes such as EI0006, torch_npu summary codes such as
ERR00100), a family fallback for CANN codes by prefix (EZ -> operator layer), the range
rules the ACL documentation states for numbers nobody listed (561xxx: an aclnn inner error;
2xxxxx: a resource or hardware-fit problem, which names no failure kind) and one for
torch_npu summary codes by their last three digits, the error kind shared by every module
(ERR00007 PTA / ERR01007 OPS -> feature not supported).

Every entry records the document it was read from (`source`, an id of the file's `sources`
list). A number is never read from its neighbours: 207000 (feature not supported) sits next
to 207001 (memory allocation) and means something else entirely, so an unlisted number gets
only what a documented range rule says, or nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from analyzers.classify.taxonomy import ANY_SUBSYSTEM, ROLES, TAXONOMY
from analyzers.core.yamlcheck import Entry, compile_regex, read_yaml

CODE_TABLES = ("acl", "hccl", "cann", "pta")


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
    source: str | None = None  # id of the document the entry was read from
    inferred: bool = False  # the category comes from a family or range rule, not the entry
    meaning_zh: str | None = None  # from knowledge/zh/code_meanings.yaml
    also: tuple[str, ...] = ()  # neighbours the labelling guide names for this code's label

    @property
    def label(self) -> str:
        """How the code is shown: HCCL return codes by name, the rest as printed."""
        return self.name if self.table == "hccl" and self.name else self.code


@dataclass(frozen=True, slots=True)
class CodeTable:
    tables: Mapping[str, Mapping[str, CodeInfo]]
    families: Mapping[str, CodeInfo]
    acl_ranges: Mapping[str, CodeInfo] = field(default_factory=dict)
    pta_kinds: Mapping[str, CodeInfo] = field(default_factory=dict)
    sources: Mapping[str, str] = field(default_factory=dict)
    # the error manager's internal-error codes (`internal_errors`): a failed call, not a cause
    internal_errors: re.Pattern[str] | None = None

    def internal(self, code: str) -> bool:
        """Whether `code` is a module's internal error, which says only that a call failed."""
        return self.internal_errors is not None and self.internal_errors.fullmatch(code) is not None

    def lookup(self, code: str, table: str | None = None) -> CodeInfo | None:
        """Meaning of `code`; without a table, guess it from the code's shape."""
        table = table or guess_table(code)
        if table is None:
            return None
        found = self.tables.get(table, {}).get(code)
        if found is None and table == "cann" and code[:2] in self.families:
            found = replace(self.families[code[:2]], code=code, inferred=True)
        if found is None and table == "acl":
            found = self._acl_range(code)
        if found is None and table == "pta" and code[-3:] in self.pta_kinds:
            found = replace(self.pta_kinds[code[-3:]], code=code)
        return found

    def _acl_range(self, code: str) -> CodeInfo | None:
        """The documented range rule with the longest prefix of `code` (561 before 5)."""
        for length in range(len(code) - 1, 0, -1):
            rule = self.acl_ranges.get(code[:length])
            if rule is not None:
                return replace(rule, code=code, inferred=True)
        return None

    def lookup_label(self, label: str) -> CodeInfo | None:
        """Like `lookup`, also accepting HCCL return codes by name (`HCCL_E_TIMEOUT`)."""
        if label.startswith("HCCL_"):
            return next((i for i in self.tables["hccl"].values() if i.name == label), None)
        return self.lookup(label)


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


def load_codes(path: Path) -> CodeTable:
    data = Entry(read_yaml(path), path.name)
    sources = _sources(Entry(data.get("sources", dict), f"{path.name}: sources"))
    defaults = Entry(data.get("table_sources", dict), f"{path.name}: table_sources")

    def section(key: str, table: str) -> dict[str, CodeInfo]:
        where = f"{path.name}: {key}"
        default = defaults.choice(key, sources, None)
        return _code_entries(Entry(data.get(key, dict, {}), where), table, sources, default)

    tables = {table: section(table, table) for table in CODE_TABLES}
    families = section("families", "cann")
    tables["cann"] = {
        code: _inherit(info, families.get(code[:2])) for code, info in tables["cann"].items()
    }
    return CodeTable(
        tables=tables,
        families=families,
        acl_ranges=section("acl_ranges", "acl"),
        pta_kinds=section("pta_kinds", "pta"),
        sources=sources,
        internal_errors=_internal_errors(data),
    )


def _internal_errors(data: Entry) -> re.Pattern[str] | None:
    pattern = data.get("internal_errors", str, None)
    return None if pattern is None else compile_regex(pattern, 0, data, "internal_errors")


def _sources(entry: Entry) -> dict[str, str]:
    """Document ids and where each document is found (a URL or a file in a named repo)."""
    for key, value in entry.data.items():
        if not isinstance(value, str) or not value.strip():
            raise entry.fail(f"source '{key}' must name a document")
    return {str(key): value for key, value in entry.data.items()}


def _inherit(info: CodeInfo, family: CodeInfo | None) -> CodeInfo:
    """A listed code without its own label takes its family's (EZ9999 -> operator)."""
    if family is None or info.category:
        return info
    return replace(
        info,
        category=family.category,
        subsystem=family.subsystem,
        role=info.role or family.role,
        inferred=family.category is not None,
    )


def _code_entries(
    table: Entry, name: str, sources: Mapping[str, str], default: str | None
) -> dict[str, CodeInfo]:
    return {
        str(code): _code_info(
            Entry(item, f"{table.where}: '{code}'"), str(code), name, sources, default
        )
        for code, item in table.data.items()
    }


def _code_info(
    entry: Entry, code: str, table: str, sources: Mapping[str, str], default: str | None
) -> CodeInfo:
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
        source=_source(entry, sources, default),
        also=_code_also(entry, category),
    )


def _code_also(entry: Entry, category: str | None) -> tuple[str, ...]:
    """Labels a reader could defend beside the code's own (a capture-state code's setting)."""
    labels = entry.strings("also", required=False)
    wrong = [label for label in labels if label not in TAXONOMY or label == category]
    if labels and category is None:
        raise entry.fail("field 'also' needs the entry's own 'category'")
    if wrong:
        raise entry.fail(f"field 'also' must list other taxonomy labels, got {wrong}")
    return tuple(labels)


def _source(entry: Entry, sources: Mapping[str, str], default: str | None) -> str:
    """Every entry says where it was read: its own `source`, else its section's."""
    source = entry.choice("source", sources, None) or default
    if source is None:
        raise entry.fail("missing field 'source' (and the table has no default source)")
    return str(source)
