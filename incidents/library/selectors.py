"""Reads for the incident page (best case matches, similar incidents) and the library's
draft list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery

from analyzers.tree.walk import TreeNode, load_tree
from incidents.library.models import Case, CaseIncident, CaseSource
from incidents.models import AnalysisRun, Incident, RunState

SIMILAR_LIMIT = 10
MATCHES_SHOWN = 5


@dataclass(frozen=True, slots=True)
class CaseMatchView:
    id: str
    title: str
    score: float | None
    case: Case | None  # None when the library has not been loaded with this case


def case_matches(report: dict[str, Any] | None, incident: Incident) -> list[CaseMatchView]:
    """The best matching cases, best first: the analyzer's matches of the seeded library and
    the promoted cases matched when the run finished, each with its library row."""
    matches = [m for m in (report or {}).get("cases") or [] if m.get("id")]
    found = Case.objects.in_bulk([m["id"] for m in matches], field_name="slug")
    views = [
        CaseMatchView(m["id"], m.get("title") or m["id"], m.get("score"), found.get(m["id"]))
        for m in matches
    ]
    promoted = CaseIncident.objects.filter(
        incident=incident,
        source=CaseIncident.Source.MATCHED,
        case__source=CaseSource.PROMOTED,
        case__is_draft=False,
    ).select_related("case")
    views += [CaseMatchView(p.case.slug, p.case.title, p.score, p.case) for p in promoted]
    views.sort(key=lambda v: -(v.score or 0.0))
    return views[:MATCHES_SHOWN]


def similar_incidents(incident: Incident, fingerprint: str, limit: int = SIMILAR_LIMIT):
    """Other incidents whose latest finished analysis has the same fingerprint, newest first."""
    if not fingerprint:
        return Incident.objects.none()
    latest = (
        AnalysisRun.objects.filter(incident=OuterRef("pk"), state=RunState.DONE)
        .order_by("-pk")
        .values("fingerprint")[:1]
    )
    candidates = AnalysisRun.objects.filter(state=RunState.DONE, fingerprint=fingerprint).values(
        "incident_id"
    )
    return (
        Incident.objects.filter(pk__in=candidates)
        .exclude(pk=incident.pk)
        .annotate(latest_fingerprint=Subquery(latest))
        .filter(latest_fingerprint=fingerprint)
        .order_by("-created_at", "-pk")[:limit]
    )


def promoted_case(incident: Incident) -> Case | None:
    return Case.objects.filter(
        incident_links__incident=incident, incident_links__source=CaseIncident.Source.PROMOTED
    ).first()


def drafts():
    """Promoted cases waiting to be published, newest first, with the incident each is from."""
    return (
        Case.objects.drafts()
        .select_related("created_by")
        .prefetch_related("incident_links__incident")
        .order_by("-created_at", "-pk")
    )


def linked_incidents(case: Case):
    """The incidents a case explains, newest first, with how each was linked."""
    return (
        CaseIncident.objects.filter(case=case)
        .select_related("incident")
        .order_by("-incident__created_at", "-incident__pk")
    )


def tree_nodes_linking(slug: str) -> list[TreeNode]:
    """The diagnosis-tree nodes that point at a case, in tree order."""
    tree = load_tree()
    return [node for node in tree.nodes.values() if slug in node.cases]
