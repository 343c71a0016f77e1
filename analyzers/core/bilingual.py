"""Bilingual knowledge text: every field people read has a Simplified Chinese sibling.

The shape is the same in every knowledge file: an English field `title` (or `question`,
`text`, ...) and, beside it, `title_zh` holding the same text in Chinese; a list field
(`symptoms`) has a list sibling (`symptoms_zh`) of the same length, item for item. The
English stays what the report and the API carry; the web UI picks the Chinese when its
active language asks for it. A sibling is optional to the loaders (a new entry can be
written in English first), but `analyzers.report.translations` lists every missing one
and the test suite refuses a shipped entry without it.

Text with `{placeholders}` (next actions, tree labels) must use the same names in both
languages, so a filled English sentence can be re-filled in Chinese: `refill` reads the
values back out of the English sentence and puts them into the Chinese template.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.yamlcheck import KnowledgeError

ZH = "_zh"
CJK_CHAR = regex_programs.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_FORMATTER = string.Formatter()


def zh_key(name: str) -> str:
    """The Chinese sibling of an English field: `title` -> `title_zh`."""
    return name + ZH


def placeholders(template: str) -> frozenset[str]:
    """The `{names}` a template uses."""
    return frozenset(name for _, name, _, _ in _FORMATTER.parse(template) if name)


def zh_text(raw: Mapping[str, Any], name: str, english: str, where: str) -> str | None:
    """The checked Chinese sibling of text field `name`, or None when it is absent.

    It must contain Chinese and use the English text's placeholders; a bad one raises
    `BilingualError` (a KnowledgeError; the case and tree loaders re-raise their own type).
    """
    value = raw.get(zh_key(name))
    if value is None:
        return None
    if not isinstance(value, str) or not CJK_CHAR.search(value):
        raise BilingualError(f"{where}: '{zh_key(name)}' must be a string written in Chinese")
    text = " ".join(value.split())
    if placeholders(text) != placeholders(english):
        raise BilingualError(
            f"{where}: '{zh_key(name)}' must use the same placeholders as '{name}'"
            f" ({', '.join(sorted(placeholders(english))) or 'none'})"
        )
    return text


def zh_list(
    raw: Mapping[str, Any], name: str, english: Sequence[str], where: str
) -> tuple[str, ...] | None:
    """The checked Chinese sibling of list field `name`: one Chinese item per English one."""
    value = raw.get(zh_key(name))
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, str) and CJK_CHAR.search(v) for v in value
    ):
        raise BilingualError(f"{where}: '{zh_key(name)}' must be a list of Chinese strings")
    if len(value) != len(english):
        raise BilingualError(
            f"{where}: '{zh_key(name)}' has {len(value)} item(s); '{name}' has {len(english)}"
        )
    return tuple(" ".join(v.split()) for v in value)


class BilingualError(KnowledgeError):
    """A Chinese sibling field is malformed; the message names the entry and the field."""


def fill(template: str, values: Mapping[str, str]) -> str:
    """The template filled with `values`; a value that is empty (nothing known to name) takes
    the bracketed clause around its placeholder with it, so a label says nothing rather than a
    word ('none') that is neither the incident's nor the reader's language."""
    empty = frozenset(name for name in placeholders(template) if values.get(name) == "")
    return without_clauses(template, empty).format_map(values)


def without_clauses(template: str, names: frozenset[str]) -> str:
    """The template without the clauses that hold any of `names`: a bracketed one
    (`(missing: {ranks})`, `（缺失：{ranks}）`) or a closing `: {ranks}`."""
    for name in names:
        template = re.sub(_CLAUSE.format(name=re.escape(name)), "", template)
    return template


# a bracketed clause holding the placeholder, or a `: {name}` that ends the text
_CLAUSE = r"\s*[(（][^(){{}}（）]*\{{{name}\}}[^(){{}}（）]*[)）]|\s*[:：]\s*\{{{name}\}}$"


def refill(english_template: str, chinese_template: str, text: str) -> str | None:
    """`text` (the English template filled in) re-filled into the Chinese template, or None
    when `text` was not made from `english_template` (with or without the clauses `fill`
    leaves out for an empty value)."""
    names = sorted(placeholders(english_template))
    for count in range(len(names) + 1):
        for dropped in map(frozenset, combinations(names, count)):
            english = without_clauses(english_template, dropped)
            if dropped and english == english_template:
                continue
            chinese = _refilled(english, without_clauses(chinese_template, dropped), text)
            if chinese is not None:
                return chinese
    return None


def _refilled(english_template: str, chinese_template: str, text: str) -> str | None:
    match = _template_pattern(english_template).fullmatch(text)
    if match is None:
        return None
    values = {name: match.group(name) for name in placeholders(english_template)}
    try:
        return chinese_template.format_map(values)
    except (KeyError, ValueError, IndexError):
        return None


@lru_cache(maxsize=1024)
def _template_pattern(template: str) -> re.Pattern[str]:
    """A regex that matches the template filled with any values (a name used twice must
    have the same value both times)."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name, _, _ in _FORMATTER.parse(template):
        parts.append(re.escape(literal))
        if name and name in seen:
            parts.append(f"(?P={name})")
        elif name:
            parts.append(f"(?P<{name}>.*?)")
            seen.add(name)
    return regex_programs.compile("".join(parts), re.DOTALL)
