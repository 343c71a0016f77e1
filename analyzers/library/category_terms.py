"""The words people search a failure category by (`knowledge/category_terms.yaml`).

A case's text names its failure the way its author did ("OOM"); someone searching types
what they saw ("out of memory"). The library's search index adds these words to every
case of the category, with the weight of its title.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from analyzers.core.yamlcheck import Entry, KnowledgeError, read_yaml
from analyzers.library.data import KNOWLEDGE, taxonomy

CATEGORY_TERMS = KNOWLEDGE / "category_terms.yaml"


def category_terms(path: Path | None = None) -> Mapping[str, tuple[str, ...]]:
    """Search words per category label; a label the file leaves out has none."""
    return _default() if path is None else _load(Path(path))


@lru_cache(maxsize=1)
def _default() -> Mapping[str, tuple[str, ...]]:
    return _load(CATEGORY_TERMS)


def _load(path: Path) -> Mapping[str, tuple[str, ...]]:
    top = Entry(read_yaml(path), path.name)
    categories = Entry(top.get("categories", dict), f"{path.name}: categories")
    labels = taxonomy()
    terms: dict[str, tuple[str, ...]] = {}
    for label in categories.data:
        if label not in labels:
            raise KnowledgeError(
                f"{path.name}: '{label}' is not a category; expected one of "
                + ", ".join(sorted(labels))
            )
        terms[label] = categories.strings(label, required=False)
    return terms
