"""Template helpers for the incident page's library sections.

{% load library %}
{% incident_library incident report as lib %}  matches, similar incidents, promotion
{% incident_tree incident report as tree %}     the diagnosis tree with this incident's path
"""

from __future__ import annotations

from typing import Any

from django import template

from incidents.library import selectors as case_selectors
from incidents.library.promotion import promotable_report
from incidents.models import fingerprint_of
from incidents.tree.drawing import TreeView, build_tree_view, history_for, marks_for

register = template.Library()


@register.simple_tag
def incident_library(incident: Any, report: dict[str, Any] | None) -> dict[str, Any]:
    fingerprint = fingerprint_of(report)
    return {
        "matches": case_selectors.case_matches(report, incident),
        "fingerprint": fingerprint,
        "similar": list(case_selectors.similar_incidents(incident, fingerprint)),
        "promoted": case_selectors.promoted_case(incident),
        "can_promote": promotable_report(incident) is not None,
    }


@register.simple_tag
def incident_tree(incident: Any, report: dict[str, Any] | None) -> TreeView:
    if incident is None:
        return build_tree_view(report)
    return build_tree_view(report, marks_for(incident.pk), history=history_for(incident.pk))


@register.filter
def percent(score: float | None) -> str:
    """A match score 0..1 as a whole percentage."""
    return "" if score is None else f"{round(float(score) * 100)}%"
