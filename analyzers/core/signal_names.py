r"""The shell's words for a process a signal ended, in each language, shared by the rules.

`knowledge/signal_names.yaml` lists them once (`segfault: [段错误, Speicherzugriffsfehler, ...]`);
a rule's regex names a list as `{{segfault}}` and a keyword list names it as the keyword
`'{{segfault}}'`, so a new translation reaches every rule that reads that death at once:

    ^\s*{{segfault}}(?:\s*{{core_dumped}})?\s*$   ->   ^\s*(?:段错误|...)(?:\s*(?:（核心已转储）|...))?\s*$
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from analyzers.core.yamlcheck import KnowledgeError, read_yaml

SIGNAL_NAMES_FILE = "signal_names.yaml"
_PLACE = re.compile(r"\{\{(\w+)\}\}")

Names = Mapping[str, tuple[str, ...]]


def load_signal_names(directory: Path) -> Names:
    """The lists of the file beside the rules (none when a directory holds no such file: a
    rule that names a list then fails to load)."""
    path = directory / SIGNAL_NAMES_FILE
    if not path.exists():
        return {}
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise KnowledgeError(f"{path.name}: expected a mapping of lists")
    names = {}
    for name, words in data.items():
        if (
            not isinstance(words, list)
            or not words
            or not all(isinstance(w, str) and w for w in words)
        ):
            raise KnowledgeError(f"{path.name}: '{name}' must list non-empty strings")
        names[str(name)] = tuple(words)
    return names


def expand(pattern: str, names: Names, where: str) -> str:
    """The regex with each `{{name}}` replaced by an alternation of that list's words, longest
    first, each matched literally but for `%d` (a number) and spaces (any run of blanks)."""

    def alternation(found: re.Match[str]) -> str:
        words = _words(found.group(1), names, where)
        return (
            "(?:" + "|".join(_literal(word) for word in sorted(words, key=len, reverse=True)) + ")"
        )

    return _PLACE.sub(alternation, pattern)


def keywords(listed: tuple[str, ...], names: Names, where: str) -> tuple[str, ...]:
    """The keywords with a `{{name}}` entry replaced by that list's words (a number's place
    cut off: a keyword is a literal)."""
    found: dict[str, None] = {}
    for keyword in listed:
        named = _PLACE.fullmatch(keyword)
        words = _words(named.group(1), names, where) if named else (keyword,)
        found.update(dict.fromkeys(max(word.split("%d"), key=len).strip() for word in words))
    return tuple(found)


def _words(name: str, names: Names, where: str) -> tuple[str, ...]:
    if name not in names:
        raise KnowledgeError(f"{where}: names '{{{{{name}}}}}', which {SIGNAL_NAMES_FILE} lacks")
    return names[name]


def _literal(word: str) -> str:
    pieces = (re.escape(piece) for piece in word.split("%d"))
    return r"\d+".join(pieces).replace(r"\ ", r"\s+")
