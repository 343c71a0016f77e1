"""Template helpers for triage: Markdown people wrote, and activity entries as they read.

{% load triage %}
{{ incident.root_cause|markdown }}          sanitised HTML
{% with line=entry|activity_line %}…        verb, field label, old and new values
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from incidents.accounts.models import Activity
from incidents.triage.activity_view import ActivityLine
from incidents.triage.activity_view import activity_line as line_of
from incidents.triage.markdown import render_markdown

register = template.Library()


@register.filter
def markdown(text: str) -> SafeString:
    return render_markdown(text)


@register.filter
def activity_line(entry: Activity) -> ActivityLine:
    return line_of(entry)
