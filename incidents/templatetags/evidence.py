"""Template helpers for evidence links and the timeline.

{% load evidence %}
<a href="{{ ref|evidence_url:incident }}">{{ ref.file }}:{{ ref.line }}</a>
{% timeline_config incident run as config %}{{ config|json_script:"timeline-config" }}
{% for cut in rank|log_cut:report.bundle %}{{ cut.file }}:{{ cut.line }}{% endfor %}
{% cut_ranks report as cuts %}
{% rank_attempts report as attempts %}{{ rank|error_attempt:attempts }}
{{ rank|rank_host:report.environment.rank_hosts }}
{{ rank.status|rank_status }}            the status in the page's language
{% if report.ranks|some_checkpointed %}  some rank reached a checkpoint
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.urls import reverse

from incidents.evidence import attempts as restarts
from incidents.evidence.links import file_url
from incidents.evidence.rank_status import status_words
from incidents.timeline import cut_logs

register = template.Library()


@register.filter
def evidence_url(ref: Mapping[str, Any] | None, incident: Any) -> str:
    """The log viewer URL of a cited line (`{file, line}`), or "" when it has no file."""
    if not ref or not ref.get("file") or incident is None:
        return ""
    return file_url(incident.pk, str(ref["file"]), ref.get("line"))


@register.filter
def rank_status(status: str) -> str:
    return status_words(status)


@register.filter
def some_checkpointed(ranks: list[Mapping[str, Any]] | None) -> bool:
    """Some rank reached a checkpoint: then the lack of a common one is a finding to show
    (a rank stopped before its first checkpoint or left no log), not an empty timeline."""
    return any(rank.get("last_checkpoint") for rank in ranks or ())


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


@register.filter
def log_cut(summary: Mapping[str, Any] | None, bundle: Mapping[str, Any] | None) -> list[dict]:
    """A rank row's files that stop mid-line, when the bundle's shape makes that a sign."""
    return cut_logs.rank_cuts(summary, bundle) if summary else []


@register.simple_tag
def cut_ranks(report: Mapping[str, Any] | None) -> list[tuple[int, list[dict]]]:
    """(rank, cut files) of every rank whose log stops mid-line, for the timeline's note."""
    return cut_logs.cut_ranks(report) if report else []


@register.simple_tag
def rank_attempts(report: Mapping[str, Any] | None) -> restarts.Attempts | None:
    """A restarted job's attempts, for labelling the rank table's first errors."""
    return restarts.rank_attempts(report)


@register.filter
def error_attempt(summary: Mapping[str, Any] | None, attempts: Any) -> int | None:
    """The attempt that printed a rank row's first error (None: not a restarted job, or a
    file no attempt folder holds)."""
    if not summary or not isinstance(attempts, restarts.Attempts):
        return None
    return attempts.of_rank.get(summary.get("rank"))


@register.filter
def rank_host(summary: Mapping[str, Any] | None, hosts: Mapping[str, str] | None) -> str:
    """The host a rank row's rank ran on (`environment.rank_hosts`, keyed by the rank as JSON
    keys it), or "" where the report placed it on none."""
    if not summary or not hosts:
        return ""
    return str(hosts.get(str(summary.get("rank")), ""))
