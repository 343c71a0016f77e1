"""Choose the next actions for a diagnosis from `knowledge/actions.yaml`.

Advice for the matched signature comes first (it knows the most), then advice for the
codes in the evidence, then the category's general advice. A log switch is only suggested
when the bundle does not show it already set, and plog collection only when no plog was
uploaded.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from analyzers.classify.rules import Action, ActionBook

MAX_ACTIONS = 6
_FORMATTER = string.Formatter()


@dataclass(frozen=True, slots=True)
class Situation:
    """What the action conditions and placeholders look at."""

    category: str
    signature_ids: Sequence[str] = ()
    codes: Sequence[str] = ()
    first_error_text: str = ""
    env: Mapping[str, str] = field(default_factory=dict)
    file_kinds: frozenset[str] = frozenset()
    multi_rank: bool = False
    values: Mapping[str, str] = field(default_factory=dict)  # {ranks}, {op}, {code}, ...


def next_actions(book: ActionBook, situation: Situation) -> list[str]:
    """Up to MAX_ACTIONS distinct pieces of advice, most specific first."""
    chosen: dict[str, str] = {}
    for action in _candidates(book, situation):
        if action.id in chosen or not _applies(action, situation):
            continue
        text = _fill(action.text, situation.values)
        if text is not None:
            chosen[action.id] = text
        if len(chosen) == MAX_ACTIONS:
            break
    return list(chosen.values())


def _candidates(book: ActionBook, situation: Situation) -> Iterable[Action]:
    for signature_id in situation.signature_ids:
        yield from book.signatures.get(signature_id, ())
    for code in situation.codes:
        yield from book.codes.get(code, ())
    yield from book.categories.get(situation.category, ())


def _applies(action: Action, situation: Situation) -> bool:
    if any(situation.env.get(var) == value for var, value in action.unless_env.items()):
        return False
    if action.unless_file_kind and action.unless_file_kind in situation.file_kinds:
        return False
    if action.when_text and not action.when_text.search(situation.first_error_text):
        return False
    return situation.multi_rank or not action.multi_rank_only


def _fill(text: str, values: Mapping[str, str]) -> str | None:
    """The text with its placeholders filled, or None when one has no value."""
    names = [name for _, name, _, _ in _FORMATTER.parse(text) if name]
    if any(values.get(name) is None for name in names):
        return None
    return text.format_map(values)
