"""Knowledge text in the page's language: Chinese when the active Django language is
Chinese (zh-hans) and the knowledge has it, English otherwise.

The analyzer's knowledge keeps each text's Chinese beside it (`title_zh`, `question_zh`,
...; see analyzers.core.bilingual); seeded cases keep theirs in `Case.translations`.
A report's root-cause sentence and culprit note carry their Chinese twin
(`diagnosis.root_cause_zh`, `culprit_reason_zh`, written at analysis time), read with
`text(diagnosis, "root_cause")`, and so do the bundle's warnings and cut budgets
(`bundle.warnings_zh`, `limits[].message_zh`); its next actions and tree answers stay English and are
re-filled into their Chinese templates (analyzers.report.translations). Anything without
Chinese falls back to the English, so an older report, a promoted case or a new entry
still shows.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from analyzers.classify.categories import load_categories
from analyzers.core.bilingual import zh_key
from analyzers.report.translations import action_zh, label_zh
from incidents.tree.drawing import NodeView, plain_label

CHINESE = "zh"


def is_chinese() -> bool:
    """True when the active language is a Chinese variant (zh-hans, zh-cn, ...)."""
    return (translation.get_language() or "").lower().startswith(CHINESE)


def text(source: Any, field: str) -> Any:
    """`source.field` in the active language: `field_zh` of a knowledge entry (dataclass or
    dict), `translations["zh"][field]` of a case, or the English when there is no Chinese."""
    english = _get(source, field)
    if not is_chinese():
        return english
    translations = _get(source, "translations")
    if isinstance(translations, dict):
        chinese = (translations.get(CHINESE) or {}).get(field)
    else:
        chinese = _get(source, zh_key(field))
    return chinese or english


def category_name(label: str) -> str:
    """The human name of a taxonomy label (`hccl` -> "Collective communication failure")."""
    entry = load_categories().get(label)
    return text(entry, "name") if entry is not None else label


def category_description(label: str) -> str:
    """One sentence on what the label means, or "" for an unknown label."""
    entry = load_categories().get(label)
    return text(entry, "description") if entry is not None else ""


def next_action(sentence: str) -> str:
    """A report's next action (an English sentence) in the active language."""
    if not is_chinese():
        return sentence
    return action_zh(sentence) or sentence


def node_label(view: NodeView) -> str:
    """The label a tree node is drawn with: the walk's answer filled with the incident's
    values, or the bare template with placeholders shown as ‹names›; in the words written
    for the incident's stack."""
    if not is_chinese():
        return view.label
    words = view.words
    if words.label_zh is not None and view.label == plain_label(words.label):
        return plain_label(words.label_zh)
    return _label_zh(view, view.label) or view.label


def node_answer(view: NodeView) -> str | None:
    """A walked node's answer: the label of the child taken, or on a leaf its own label."""
    answer = view.answer
    if not answer or not is_chinese():
        return answer
    for candidate in [*view.children, view]:
        chinese = _label_zh(candidate, answer)
        if chinese is not None:
            return chinese
    return answer


def _label_zh(view: NodeView, answer: str) -> str | None:
    """`answer` re-filled into the Chinese of the label it was made from: the label written for
    the incident's stack, or the node's own (a report written before its walk was worded for
    the stack)."""
    return label_zh(answer, (view.words, view.node))


def _get(source: Any, name: str) -> Any:
    if isinstance(source, dict):
        return source.get(name)
    return getattr(source, name, None)
