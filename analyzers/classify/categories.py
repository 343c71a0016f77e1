"""Human names of the failure labels (`knowledge/categories.yaml`), in English and Chinese.

A report carries the bare label (`hccl`); a page shows "Collective communication failure"
or "集合通信失败" and a one-sentence description. The file must name every label of the
taxonomy and nothing else, so a new label cannot reach a page without a name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core.bilingual import zh_text
from analyzers.core.yamlcheck import Entry, KnowledgeError, read_yaml

CATEGORIES_FILE = Path(__file__).parents[1] / "knowledge" / "categories.yaml"
_FIELDS = frozenset({"name", "description", "name_zh", "description_zh"})


@dataclass(frozen=True, slots=True)
class CategoryText:
    label: str
    name: str
    description: str
    name_zh: str | None = None
    description_zh: str | None = None


@cache
def load_categories(path: Path = CATEGORIES_FILE) -> dict[str, CategoryText]:
    """Every taxonomy label's name and description, checked; read once per process."""
    data = Entry(read_yaml(path), path.name)
    section = Entry(data.get("categories", dict), f"{path.name}: categories")
    missing, unknown = set(TAXONOMY) - set(section.data), set(section.data) - set(TAXONOMY)
    if missing or unknown:
        raise KnowledgeError(
            f"{section.where}: labels must match the taxonomy;"
            f" missing {sorted(missing)}, unknown {sorted(unknown)}"
        )
    return {
        label: _category(label, Entry(raw, f"{section.where}: {label!r}"))
        for label, raw in section.data.items()
    }


def _category(label: str, entry: Entry) -> CategoryText:
    extra = set(entry.data) - _FIELDS
    if extra:
        raise entry.fail(f"unknown field(s) {sorted(extra)}")
    name = " ".join(entry.get("name", str).split())
    description = " ".join(entry.get("description", str).split())
    name_zh = zh_text(entry.data, "name", name, entry.where)
    description_zh = zh_text(entry.data, "description", description, entry.where)
    return CategoryText(label, name, description, name_zh, description_zh)
