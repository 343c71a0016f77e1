"""Template filters that show knowledge text in the active language (incidents.localized).

{% load localized %}
{{ case|localized:"title" }}            a case, tree node or verification item's field
{{ diagnosis|localized:"root_cause" }}  a report's sentence (`root_cause_zh` when it has one)
{{ bundle|localized:"warnings" }}       the bundle's warnings (`warnings_zh`), a cut's message
{{ diagnosis.category|category_name }}  "Collective communication failure" / "集合通信失败"
{{ label|category_note }}               the label's one-sentence description, on Chinese pages
{{ action|next_action }}                a report's next action
{{ n|node_label }}  {{ n|node_answer }} a drawn tree node's label and answer
{{ run.step|run_step }}  {{ run.error|run_reason }}  a run's step and failure reason
"""

from __future__ import annotations

from typing import Any

from django import template

from incidents import localized as lang
from incidents.runs import wording
from incidents.tree.drawing import NodeView

register = template.Library()


@register.filter
def localized(source: Any, field: str) -> Any:
    return lang.text(source, field)


@register.filter
def category_name(label: str) -> str:
    return lang.category_name(label)


@register.filter
def category_note(label: str) -> str:
    """The label's description in Chinese on a Chinese page (it introduces the root-cause
    sentence, which quotes the logs as printed); nothing on an English page."""
    return lang.category_description(label) if lang.is_chinese() else ""


@register.filter
def next_action(sentence: str) -> str:
    return lang.next_action(sentence)


@register.filter
def node_label(view: NodeView) -> str:
    return lang.node_label(view)


@register.filter
def node_answer(view: NodeView) -> str | None:
    return lang.node_answer(view)


@register.filter
def run_step(stored: str) -> str:
    return wording.step_text(stored)


@register.filter
def run_reason(stored: str) -> str:
    return wording.reason_text(stored)
