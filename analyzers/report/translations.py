"""The Chinese of the knowledge text people read, and of the pieces a report carries.

A report stays English (its schema does not change): its next actions and tree answers are
English templates from `actions.yaml` and `tree.yaml` filled with values from the evidence.
`action_zh` and `tree_answer_zh` turn such a sentence back into its Chinese template filled
with the same values, so a page can show old and new reports in Chinese alike.

The root-cause sentence is different: it is built in both languages at analysis time
(`analyzers.core.phrases`), from signature titles and code meanings whose Chinese lives in
`knowledge/zh/` (`analyzers.classify.chinese`).

`missing_translations` lists every entry people read that has no Chinese yet; the test suite
keeps that list empty for the shipped knowledge.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Protocol

from analyzers.classify.action_book import Action
from analyzers.classify.categories import load_categories
from analyzers.classify.chinese import MEANINGS, TITLES, code_sections
from analyzers.classify.rules import load_knowledge
from analyzers.core.bilingual import refill, zh_key
from analyzers.library.data import TRANSLATED_LISTS, TRANSLATED_TEXT, load_cases
from analyzers.tree.loading import load_tree


def action_zh(text: str) -> str | None:
    """The Chinese of a next action as a report carries it, or None when the sentence is
    not one of the shipped actions (or that action has no Chinese)."""
    for english, chinese in _action_templates():
        filled = refill(english, chinese, text)
        if filled is not None:
            return filled
    return None


def tree_answer_zh(node_id: str, answer: str) -> str | None:
    """The Chinese of the label a walk entered `node_id` with (`answer` is the English
    label filled with the incident's values, in the words of the job's stack), or None when
    it cannot be re-filled."""
    node = load_tree().nodes.get(node_id)
    if node is None:
        return None
    return label_zh(answer, (node, node.cuda, node.cpu, node.unknown))


class Labelled(Protocol):
    """Anything that carries a label and its Chinese (a tree node, a stack's twin of it)."""

    @property
    def label(self) -> str | None: ...

    @property
    def label_zh(self) -> str | None: ...


def label_zh(answer: str, wordings: Iterable[Labelled | None]) -> str | None:
    """`answer` re-filled into the Chinese of the first of `wordings` (a node's own label, a
    stack's twin of it) whose English it was made from, or None."""
    for words in wordings:
        if words is not None and words.label is not None and words.label_zh is not None:
            chinese = refill(words.label, words.label_zh, answer)
            if chinese is not None:
                return chinese
    return None


@cache
def _action_templates() -> tuple[tuple[str, str], ...]:
    """(English, Chinese) per distinct action text; placeholder-free texts first, so a
    literal sentence never matches a looser template by accident."""
    pairs = {(a.text, a.text_zh) for a in _all_actions() if a.text_zh}
    return tuple(sorted(pairs, key=lambda pair: ("{" in pair[0], pair[0])))


def _all_actions() -> Iterator[Action]:
    book = load_knowledge().actions
    for section in (book.verdicts, book.signatures, book.codes, book.categories):
        for actions in section.values():
            yield from actions


def missing_translations() -> list[str]:
    """Every text people read that lacks its Chinese, as `file: entry: field`."""
    return [
        *_missing_categories(),
        *_missing_cases(),
        *_missing_tree(),
        *_missing_actions(),
        *_missing_titles(),
        *_missing_meanings(),
    ]


def _missing_titles() -> Iterator[str]:
    for signature in load_knowledge().signatures:
        if signature.title_zh is None:
            yield f"zh/{TITLES}: {signature.id} (signatures.yaml: '{signature.title}')"


def _missing_meanings() -> Iterator[str]:
    for section, codes in code_sections(load_knowledge().codes).items():
        for code, info in codes.items():
            if info.meaning_zh is None:
                yield f"zh/{MEANINGS}: {section}: {code} (error_codes.yaml: '{info.meaning}')"


def _missing_categories() -> Iterator[str]:
    for label, text in load_categories().items():
        for name in ("name", "description"):
            if getattr(text, zh_key(name)) is None:
                yield f"categories.yaml: {label}: {zh_key(name)}"


def _missing_cases() -> Iterator[str]:
    for case in load_cases():
        for name in TRANSLATED_TEXT:
            if getattr(case, zh_key(name)) is None:
                yield f"cases/{case.source}: {case.id}: {zh_key(name)}"
        for name in TRANSLATED_LISTS:
            if getattr(case, name) and getattr(case, zh_key(name)) is None:
                yield f"cases/{case.source}: {case.id}: {zh_key(name)}"


def _missing_tree() -> Iterator[str]:
    tree = load_tree()
    for node in tree.nodes.values():
        for name in ("label", "question", "guidance"):
            if getattr(node, zh_key(name)) is None:
                yield f"tree.yaml: node {node.id}: {zh_key(name)}"
        for stack in ("cuda", "cpu", "unknown"):
            twin = getattr(node, stack)
            for name in ("label", "question", "guidance"):
                if twin and getattr(twin, name) and getattr(twin, zh_key(name)) is None:
                    yield f"tree.yaml: node {node.id}: {stack}: {zh_key(name)}"
    for item in tree.verification:
        for name in ("check", "how"):
            if getattr(item, name) and getattr(item, zh_key(name)) is None:
                yield f"tree.yaml: verification {item.id}: {zh_key(name)}"


def _missing_actions() -> Iterator[str]:
    book = load_knowledge().actions
    sections = {
        "verdicts": book.verdicts,
        "signatures": book.signatures,
        "codes": book.codes,
        "categories": book.categories,
    }
    for section, entries in sections.items():
        for key, actions in entries.items():
            for action in actions:
                if action.text_zh is None:
                    yield f"actions.yaml: {section}: {key}: {action.id}: text_zh"
