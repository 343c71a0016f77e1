"""Writes to the case library: seeding from the knowledge files, links to incidents, edits.

`cases_load_knowledge` is idempotent: it creates or updates the seeded cases from
`analyzers/knowledge/cases/*.yaml`, removes seeded cases the files no longer list, and
never touches promoted cases (`incidents.library.promotion` makes and publishes those).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.forms import ModelForm
from django.utils import timezone

from analyzers.library import matching as knowledge
from incidents.accounts.activity import activity_record_changes
from incidents.library import search_index
from incidents.library.models import CASE_TEXT_FIELDS, Case, CaseIncident, CaseSource
from incidents.library.promoted_chinese import without_stale_chinese
from incidents.library.promoted_matching import promoted_matches
from incidents.models import AnalysisRun, RunState

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
    search_index.index_cases(new + changed)
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
