"""Writes to the case library: seeding from the knowledge files, links, promotion.

A promoted case starts as a draft (`case_promote`) and joins search and matching when
someone publishes it (`case_publish`). `cases_load_knowledge` is idempotent: it creates or updates the seeded cases from
`analyzers/knowledge/cases/*.yaml`, removes seeded cases the files no longer list, and
never touches promoted cases.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.forms import ModelForm
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from analyzers.library import matching as knowledge
from incidents.accounts.activity import activity_record, activity_record_changes
from incidents.accounts.models import Verb
from incidents.library import search
from incidents.library.models import CASE_TEXT_FIELDS, Case, CaseIncident, CaseSource
from incidents.library.promoted_chinese import promoted_translations, without_stale_chinese
from incidents.library.promoted_matching import promoted_matches
from incidents.models import AnalysisRun, Incident, RunState

SEEDED_FIELDS = (*CASE_TEXT_FIELDS, "strategy")


@dataclass
class LoadResult:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # a promoted case holds the slug
    unchanged: int = 0


def _seed_values(case: knowledge.Case) -> dict[str, Any]:
    """The case's row; its Chinese search terms join the tags, which both search backends
    index, so a Chinese query finds the English case. Its Chinese text goes to
    `translations` for the pages (and the search index)."""
    data = case.to_dict()
    values = {name: data[name] for name in SEEDED_FIELDS}
    values["tags"] = list(dict.fromkeys([*case.tags, *case.terms_zh]))
    values["translations"] = {"zh": case.chinese()} if case.chinese() else {}
    values["knowledge_file"] = case.source
    return values


@transaction.atomic
def cases_load_knowledge(library: Sequence[knowledge.Case] | None = None) -> LoadResult:
    """Make the seeded cases equal to the knowledge files (default: the shipped ones)."""
    library = knowledge.load_cases() if library is None else library
    result = LoadResult()
    existing = {c.slug: c for c in Case.objects.all()}
    new, changed = [], []
    for entry in library:
        current, values = existing.get(entry.id), _seed_values(entry)
        if current is None:
            new.append(Case(slug=entry.id, source=CaseSource.SEEDED, **values))
        elif not current.is_seeded:
            result.skipped.append(entry.id)
        elif any(getattr(current, k) != v for k, v in values.items()):
            changed.append(_updated(current, values))
        else:
            result.unchanged += 1
    Case.objects.bulk_create(new)
    Case.objects.bulk_update(
        changed, [*SEEDED_FIELDS, "translations", "knowledge_file", "updated_at"]
    )
    search.index_cases(new + changed)
    result.created, result.updated = [c.slug for c in new], [c.slug for c in changed]
    result.removed = _remove_stale({entry.id for entry in library})
    return result


def _updated(case: Case, values: dict[str, Any]) -> Case:
    for name, value in values.items():
        setattr(case, name, value)
    case.updated_at = timezone.now()
    return case


def _remove_stale(listed: set[str]) -> list[str]:
    stale = Case.objects.seeded().exclude(slug__in=listed)
    removed = sorted(stale.values_list("slug", flat=True))
    stale.delete()
    return removed


# --------------------------------------------------------------------- incident links


def incident_cases_sync(*, run_id: int) -> None:
    """Link the incident of a finished run to the cases it matches (with scores): the
    seeded cases the analyzer matched and the promoted cases whose signatures fit.

    Called when a run finishes; links from an older run's matches are replaced, links made
    by promotion are kept."""
    run = AnalysisRun.objects.filter(pk=run_id, state=RunState.DONE).first()
    if run is None or not isinstance(run.report, dict):
        return
    scores = {m.get("id"): m.get("score") for m in run.report.get("cases") or [] if m.get("id")}
    promoted_here = set(
        CaseIncident.objects.filter(
            incident_id=run.incident_id, source=CaseIncident.Source.PROMOTED
        ).values_list("case_id", flat=True)
    )
    scores |= promoted_matches(run.report, exclude=promoted_here)
    cases = {c.slug: c for c in Case.objects.published().filter(slug__in=list(scores))}
    with transaction.atomic():
        matched = CaseIncident.objects.filter(
            incident_id=run.incident_id, source=CaseIncident.Source.MATCHED
        )
        matched.exclude(case__slug__in=list(cases)).delete()
        for slug, case in cases.items():
            _link(case, run.incident_id, scores[slug])


def _link(case: Case, incident_id: int, score: float | None) -> None:
    link, created = CaseIncident.objects.get_or_create(
        case=case, incident_id=incident_id, defaults={"score": score}
    )
    if not created and link.source == CaseIncident.Source.MATCHED and link.score != score:
        link.score = score
        link.save(update_fields=["score", "linked_at"])


# -------------------------------------------------------------------------- promotion


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
        search.index_cases([case])
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


def case_update(*, form: ModelForm, user: AbstractBaseUser | None) -> Case:
    """Save a validated edit of a case; each changed field goes to the activity log with
    its old value, so an edit never loses what the case said before. A changed field's
    Chinese, which said what the field used to say, is dropped."""
    case = form.instance
    before = Case.objects.values(*CASE_TEXT_FIELDS).get(pk=case.pk)
    after = {name: getattr(case, name) for name in CASE_TEXT_FIELDS}  # the form's values
    case.translations = without_stale_chinese(case.translations, before, after)
    with transaction.atomic():
        case = form.save()
        activity_record_changes(
            actor=user, target=f"case {case.slug}", case=case, before=before, after=after
        )
    return case


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
