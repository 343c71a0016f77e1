"""The Chinese of signature titles and code meanings, in files of their own beside the
English knowledge: `knowledge/zh/signature_titles.yaml` (signature id -> title) and
`knowledge/zh/code_meanings.yaml` (the tables of `error_codes.yaml`, code -> meaning).

They are kept apart so the English files keep one fact per line and people editing rules
never touch the Chinese. A key that names no signature or no code is an error at load time
(a renamed rule must take its Chinese along); an entry without Chinese is allowed to the
loader and listed by `analyzers.report.translations`, which the test suite keeps empty.
The Chinese goes into the root-cause sentence a report carries beside the English one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzers.classify.errorcodes import CodeInfo, CodeTable
from analyzers.core.bilingual import CJK_CHAR
from analyzers.core.yamlcheck import KnowledgeError, read_yaml

if TYPE_CHECKING:
    from analyzers.classify.signature import Signature

TITLES = "signature_titles.yaml"
MEANINGS = "code_meanings.yaml"
# code_meanings.yaml's sections, as in error_codes.yaml
SECTIONS = ("acl", "hccl", "cann", "pta", "families", "acl_ranges", "pta_kinds")


def with_titles(signatures: tuple[Signature, ...], directory: Path) -> tuple[Signature, ...]:
    """The signatures with their Chinese titles (unchanged when the file is absent)."""
    path = directory / TITLES
    if not path.exists():
        return signatures
    titles = _chinese_mapping(read_yaml(path), TITLES)
    unknown = sorted(set(titles) - {sig.id for sig in signatures})
    if unknown:
        raise KnowledgeError(f"{TITLES}: no signature has the id(s) {', '.join(unknown)}")
    return tuple(replace(sig, title_zh=titles.get(sig.id)) for sig in signatures)


def with_meanings(codes: CodeTable, directory: Path) -> CodeTable:
    """The code table with the codes' Chinese meanings (unchanged when the file is absent).
    A code found through a family or range rule takes that rule's Chinese."""
    path = directory / MEANINGS
    if not path.exists():
        return codes
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise KnowledgeError(f"{MEANINGS}: expected a mapping of tables")
    unknown = sorted(set(map(str, raw)) - set(SECTIONS))
    if unknown:
        raise KnowledgeError(f"{MEANINGS}: unknown table(s) {', '.join(unknown)}")
    chinese = {
        section: _chinese_mapping(raw.get(section) or {}, f"{MEANINGS}: {section}")
        for section in SECTIONS
    }
    sections = code_sections(codes)
    for section, meanings in chinese.items():
        missing = sorted(set(meanings) - set(sections[section]))
        if missing:
            raise KnowledgeError(
                f"{MEANINGS}: {section}: error_codes.yaml has no code {', '.join(missing)}"
            )

    def translated(section: str) -> dict[str, CodeInfo]:
        return {
            code: replace(info, meaning_zh=chinese[section].get(code))
            for code, info in sections[section].items()
        }

    return replace(
        codes,
        tables={table: translated(table) for table in codes.tables},
        families=translated("families"),
        acl_ranges=translated("acl_ranges"),
        pta_kinds=translated("pta_kinds"),
    )


def code_sections(codes: CodeTable) -> dict[str, Mapping[str, CodeInfo]]:
    """Every table of the code file by its section name in error_codes.yaml."""
    return {
        **{table: codes.tables.get(table, {}) for table in ("acl", "hccl", "cann", "pta")},
        "families": codes.families,
        "acl_ranges": codes.acl_ranges,
        "pta_kinds": codes.pta_kinds,
    }


def _chinese_mapping(raw: Any, where: str) -> dict[str, str]:
    """key -> Chinese text, each value a string written in Chinese."""
    if not isinstance(raw, dict):
        raise KnowledgeError(f"{where}: expected a mapping")
    texts: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(value, str) or not CJK_CHAR.search(value):
            raise KnowledgeError(f"{where}: '{key}' must be a string written in Chinese")
        texts[str(key)] = " ".join(value.split())
    return texts
