"""Template helpers for the activity log.

{% load activity %}
<td>{{ a.verb|verb_label }}</td>
"""

from __future__ import annotations

from django import template

from incidents.accounts.models import VERB_LABELS

register = template.Library()


@register.filter
def verb_label(verb: str) -> str:
    """The verb in the page's language; verbs are stored as plain English words."""
    return str(VERB_LABELS.get(verb, verb))
