"""Checked reading of the YAML knowledge files: every complaint names the file, the entry
and the field, e.g. `signatures.yaml: signature 'oom.x': field 'weight' must be within 1-100`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.knowledge_cache import by_content


class KnowledgeError(ValueError):
    """A knowledge file is malformed; the message names the file, entry and field."""


def parse_yaml(text: str) -> Any:
    """Parse YAML text with libyaml's loader when it is installed (same result, ~10x faster)."""
    return _yaml().load(text, Loader=_strict_loader())


@cache
def _strict_loader() -> type:
    """The safe loader, refusing a key written twice in one mapping. YAML parsers keep the
    last value without a word, and two edits of one rule merged side by side (two `regex:`
    keys) would silently drop one edit's patterns."""
    yaml = _yaml()

    class StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        pass

    def mapping(loader: Any, node: Any) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is written twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return loader.construct_mapping(node, deep=True)

    StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return StrictLoader


def parse_yaml_file(path: Path) -> Any:
    """A knowledge file's data, parsed once per content of the file.

    Every analysis reads a dozen rule files, 40 ms of parsing (and the parser's import)
    before the first log line; their parsed data is kept under the analyzer's cache
    directory keyed by the file's bytes, so an edited file is parsed again and a broken one
    fails here each time, as it did before."""
    content = path.read_bytes()
    return by_content(f"yaml.{path.stem}", content, lambda: parse_yaml(content.decode("utf-8")))


def read_yaml(path: Path) -> Any:
    try:
        return parse_yaml_file(path)
    except (OSError, _yaml().YAMLError) as error:  # evaluated only once something is raised
        raise KnowledgeError(f"{path.name}: cannot read: {error}") from error


def _yaml() -> ModuleType:
    """PyYAML, imported when a file has to be parsed: a run whose knowledge is all cached
    does without it."""
    import yaml

    return yaml


class Entry:
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


def compile_regex(pattern: str, flags: int, entry: Entry, key: str) -> re.Pattern[str]:
    try:
        return regex_programs.compile(pattern, flags)
    except re.error as error:
        raise entry.fail(f"field '{key}' is not a valid regex: {error}") from error


def reject_duplicates(ids: list[str], where: str, what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise KnowledgeError(f"{where}: duplicate {what} '{item}'")
        seen.add(item)
