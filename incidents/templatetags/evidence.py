"""Template helpers for evidence links and the timeline.

{% load evidence %}
<a href="{{ ref|evidence_url:incident }}">{{ ref.file }}:{{ ref.line }}</a>
{% timeline_config incident run as config %}{{ config|json_script:"timeline-config" }}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.urls import reverse

from incidents.evidence.links import file_url

register = template.Library()


@register.filter
def evidence_url(ref: Mapping[str, Any] | None, incident: Any) -> str:
    """The log viewer URL of a cited line (`{file, line}`), or "" when it has no file."""
    if not ref or not ref.get("file") or incident is None:
        return ""
    return file_url(incident.pk, str(ref["file"]), ref.get("line"))


@register.filter
def bundle_file_url(path: str, incident: Any) -> str:
    """The log viewer URL of a bundle file, at its first line."""
    return file_url(incident.pk, path) if path and incident is not None else ""


@register.simple_tag
def timeline_config(incident: Any, run: Any) -> dict[str, Any]:
    """What static/js/timeline.js needs, passed with `json_script` (no inline script)."""
    return {
        "dataUrl": reverse("incidents:timeline", kwargs={"number": incident.pk}),
        "run": run.pk if run is not None else None,
    }
