"""Promoting an incident to a case of the library: the draft built from its report, and
publishing it.

A promoted case starts as a draft (`case_promote`), prefilled from the incident's latest
root-caused report, and joins search and matching only when someone publishes it
(`case_publish`); every step goes to the activity log.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from analyzers.library import matching as knowledge
from incidents.accounts.activity import activity_record
from incidents.accounts.models import Verb
from incidents.library import search_index
from incidents.library.models import CASE_TEXT_FIELDS, Case, CaseIncident, CaseSource
from incidents.library.promoted_chinese import promoted_translations
from incidents.models import Incident, RunState


class NotPromotable(ValueError):
    """The incident has no root-caused analysis to build a case from."""


def promotable_report(incident: Incident) -> dict[str, Any] | None:
    """The latest finished report when it names a root cause of a real failure."""
    run = incident.runs.filter(state=RunState.DONE).order_by("-pk").first()
    report = run.report if run is not None and isinstance(run.report, dict) else None
    diagnosis = (report or {}).get("diagnosis") or {}
    if not diagnosis.get("root_cause") or diagnosis.get("category") in (None, "healthy"):
        return None
    return report


def promotion_values(incident: Incident) -> dict[str, Any]:
    """The case fields prefilled from the incident's report, for the promotion form."""
    report = promotable_report(incident)
    if report is None:
        message = gettext("%(incident)s has no root-caused analysis to promote.")
        raise NotPromotable(message % {"incident": incident.short_id})
    values = case_values_from_report(report, incident)
    return {name: values.get(name, []) for name in CASE_TEXT_FIELDS}


def case_promote(
    *, incident: Incident, user: AbstractBaseUser | None, values: dict[str, Any] | None = None
) -> Case:
    """A draft case from the incident, linked to it: `values` as the person saved them in
    the form (default: prefilled from the report), with the report's Chinese for the fields
    saved as prefilled (incidents.library.promoted_chinese). Publishing it is a separate step.

    Promoting the same incident again returns the case it already became."""
    existing = Case.objects.filter(
        incident_links__incident=incident, incident_links__source=CaseIncident.Source.PROMOTED
    ).first()
    if existing is not None:
        return existing
    values = promotion_values(incident) if values is None else values
    with transaction.atomic():
        case = Case(
            **{name: values[name] for name in CASE_TEXT_FIELDS if name in values},
            translations=_promoted_chinese(incident, values),
            source=CaseSource.PROMOTED,
            is_draft=True,
            created_by=user,
        )
        case.slug = _unique_slug(f"inc-{incident.pk}-{slugify(case.title)[:60]}".strip("-"))
        case.save()
        CaseIncident.objects.create(
            case=case, incident=incident, score=1.0, source=CaseIncident.Source.PROMOTED
        )
        activity_record(
            actor=user,
            verb=Verb.PROMOTED,
            target=incident.short_id,
            incident=incident,
            case=case,
            field="case",
            new=case.slug,
        )
    return case


def case_publish(*, case: Case, user: AbstractBaseUser | None) -> bool:
    """Publish a draft: from now on search, the API and matching see it. False if it was
    already published (a second click, or someone else was quicker)."""
    with transaction.atomic():
        published = Case.objects.filter(pk=case.pk, is_draft=True).update(
            is_draft=False, updated_at=timezone.now()
        )
        if not published:
            return False
        case.refresh_from_db()
        search_index.index_cases([case])
        activity_record(
            actor=user,
            verb=Verb.PUBLISHED,
            target=f"case {case.slug}",
            incident=_promoted_from(case),
            case=case,
            field="case",
            old="draft",
            new="published",
        )
    return True


def _promoted_chinese(incident: Incident, values: dict[str, Any]) -> dict[str, Any]:
    report = promotable_report(incident)
    if report is None:
        return {}
    return promoted_translations(report, case_values_from_report(report, incident), values)


def _promoted_from(case: Case) -> Incident | None:
    link = case.incident_links.filter(source=CaseIncident.Source.PROMOTED).first()
    return link.incident if link is not None else None


def case_values_from_report(report: dict[str, Any], incident: Incident) -> dict[str, Any]:
    diagnosis = report.get("diagnosis") or {}
    first = (diagnosis.get("first_error") or {}).get("text") or ""
    cause_lines = [first] + [
        (e.get("ref") or {}).get("text") or ""
        for e in diagnosis.get("evidence") or []
        if e.get("role") == "cause"
    ]
    subsystem = diagnosis.get("subsystem")
    return {
        "title": title_from_root_cause(diagnosis.get("root_cause") or "") or incident.title,
        "category": diagnosis.get("category") or "other",
        "symptoms": [_without_rank_prefix(first)[:300]] if first else [],
        "signatures": _signatures(diagnosis, first),
        "codes": list(diagnosis.get("error_codes") or []),
        "operators": list(
            dict.fromkeys(op for line in cause_lines for op in knowledge.find_operators(line))
        ),
        "hardware": ["any"],
        "root_cause": diagnosis.get("root_cause") or "",
        "fix": "\n".join(diagnosis.get("next_actions") or []) or "Describe the fix.",
        "references": [f"{incident.short_id} {incident.get_absolute_url()}"],
        "tags": [subsystem] if subsystem and subsystem != "none" else [],
        "source": CaseSource.PROMOTED,
    }


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
# Where a root cause starts naming places: ", rank 3", ", at f.log:48", " on rank 3 at ...".
_WHERE = re.compile(r",\s*(?:rank|ranks|at)\s|\s+on\s+ranks?\s+\d", re.IGNORECASE)
_RANK_PREFIX = re.compile(r"^\s*\[rank\s*\d+\]:\s*", re.IGNORECASE)
TITLE_CHARS = 120


def title_from_root_cause(root_cause: str) -> str:
    """The root cause's first sentence up to where it starts naming ranks and files."""
    sentence = _SENTENCE_END.split(root_cause.strip(), maxsplit=1)[0]
    sentence = _WHERE.split(sentence, maxsplit=1)[0].rstrip(" .,:")
    if len(sentence) <= TITLE_CHARS:
        return sentence
    return sentence[:TITLE_CHARS].rsplit(" ", 1)[0] + "…"


def _without_rank_prefix(line: str) -> str:
    return _RANK_PREFIX.sub("", line)


def _signatures(diagnosis: dict[str, Any], first_error: str) -> list[str]:
    """A regex for the first error's message: literal text, numbers and variables loose."""
    template = diagnosis.get("fingerprint_template") or _without_rank_prefix(first_error)
    if not template:
        return []
    parts = re.split(r"(<\*>|\d+)", template.strip()[:300])
    pattern = "".join(
        ".+?" if p == "<*>" else r"\d+" if p.isdigit() else re.escape(p) for p in parts if p
    )
    return [pattern]


def _unique_slug(base: str) -> str:
    slug, n = base[:90] or "case", 2
    while Case.objects.filter(slug=slug).exists():
        slug, n = f"{base[:86]}-{n}", n + 1
    return slug
