"""Writes of the triage workflow. Every change is validated as a whole before anything is
saved (a bad value changes nothing), then recorded in the activity log field by field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from incidents.accounts.activity import activity_record, activity_record_changes
from incidents.accounts.models import Verb
from incidents.runs.models import Incident
from incidents.triage.models import Comment, RootCauseVerdict, Tag, Ticket
from incidents.triage.states import TriageStatus
from incidents.triage.tickets import ticket_key
from incidents.triage.validation import (
    CLEANERS,
    TriageInvalid,
    duplicate_clean,
    owner_clean,
    tags_clean,
    text_clean,
    tickets_clean,
)

EDITABLE_FIELDS = (
    "triage_status",
    "owner",
    "tags",
    "tickets",
    "root_cause",
    "root_cause_category",
    "decision",
    "duplicate_of",
)


@dataclass(frozen=True)
class TriageValues:
    """The cleaned form of a change: only the fields that were sent."""

    scalars: dict[str, Any]
    tags: list[str] | None = None
    tickets: list[str] | None = None


def triage_update(
    *, incident: Incident, actor: AbstractBaseUser | None, changes: Mapping[str, Any]
) -> Incident:
    """Apply `changes` (any of EDITABLE_FIELDS) to the incident, or raise TriageInvalid."""
    values = triage_clean(incident, changes)
    with transaction.atomic():
        locked = Incident.objects.select_for_update().get(pk=incident.pk)
        before = triage_snapshot(locked)
        for name, value in values.scalars.items():
            setattr(locked, name, value)
        if values.scalars:
            locked.save(update_fields=[*values.scalars, "updated_at"])
        if values.tags is not None:
            _tags_set(locked, values.tags)
        if values.tickets is not None:
            _tickets_set(locked, values.tickets)
        after = triage_snapshot(locked)
        activity_record_changes(
            actor=actor, target=locked.short_id, incident=locked, before=before, after=after
        )
        category = after["root_cause_category"]
        if category and category != before["root_cause_category"]:
            _verdict_record(locked, actor)
    incident.refresh_from_db()  # the caller's object shows what was saved
    return incident


def triage_clean(incident: Incident, changes: Mapping[str, Any]) -> TriageValues:
    unknown = sorted(set(changes) - set(EDITABLE_FIELDS))
    if unknown:
        raise TriageInvalid(
            unknown[0],
            _("not an editable field (one of %(fields)s)") % {"fields": ", ".join(EDITABLE_FIELDS)},
        )
    scalars: dict[str, Any] = {}
    for name in ("triage_status", "root_cause", "root_cause_category", "decision"):
        if name in changes:
            scalars[name] = CLEANERS[name](changes[name])
    if "owner" in changes:
        scalars["owner"] = owner_clean(changes["owner"])
    if "duplicate_of" in changes:
        scalars["duplicate_of"] = duplicate_clean(incident, changes["duplicate_of"])
    status = scalars.get("triage_status", incident.triage_status)
    duplicate_of = scalars.get("duplicate_of", incident.duplicate_of)
    if status == TriageStatus.DUPLICATE and duplicate_of is None:
        raise TriageInvalid("duplicate_of", _("a duplicate names the incident it duplicates"))
    if status != TriageStatus.DUPLICATE and duplicate_of is not None:
        scalars["duplicate_of"] = None  # leaving 'duplicate' drops the link
    tags = tags_clean(changes["tags"]) if "tags" in changes else None
    tickets = tickets_clean(changes["tickets"]) if "tickets" in changes else None
    return TriageValues(scalars=scalars, tags=tags, tickets=tickets)


def triage_snapshot(incident: Incident) -> dict[str, Any]:
    """The triage fields as text, for the activity log's before/after."""
    return {
        "triage_status": incident.triage_status,
        "owner": incident.owner.get_username() if incident.owner else "",
        "tags": ", ".join(t.name for t in incident.tags.all()),
        "tickets": "\n".join(t.url for t in incident.tickets.all()),
        "root_cause": incident.root_cause,
        "root_cause_category": incident.root_cause_category,
        "decision": incident.decision,
        "duplicate_of": incident.duplicate_of.short_id if incident.duplicate_of else "",
    }


def comment_add(*, incident: Incident, author: AbstractBaseUser | None, body: str) -> Comment:
    text = text_clean("body", body)
    if not text.strip():
        raise TriageInvalid("body", _("a comment needs some text"))
    with transaction.atomic():
        comment = Comment.objects.create(
            incident=incident,
            author=author if author is not None and author.is_authenticated else None,
            author_name=author.get_username() if author is not None else "",
            body=text,
        )
        activity_record(
            actor=author,
            verb=Verb.COMMENTED,
            target=incident.short_id,
            incident=incident,
            new=text[:500],
        )
    return comment


# ------------------------------------------------------------------ writes


def _tags_set(incident: Incident, names: list[str]) -> None:
    tags = [Tag.objects.get_or_create(name=name)[0] for name in names]
    incident.tags.set(tags)


def _tickets_set(incident: Incident, urls: list[str]) -> None:
    incident.tickets.exclude(url__in=urls).delete()
    kept = set(incident.tickets.values_list("url", flat=True))
    for url in urls:
        if url not in kept:
            Ticket.objects.create(incident=incident, url=url, key=ticket_key(url))


def _verdict_record(incident: Incident, actor: AbstractBaseUser | None) -> None:
    run = incident.runs.filter(state="done").order_by("-pk").first()
    diagnosis = ((run.report or {}).get("diagnosis") or {}) if run else {}
    RootCauseVerdict.objects.create(
        incident=incident,
        analyzer_category=str(diagnosis.get("category") or ""),
        analyzer_confidence=diagnosis.get("confidence"),
        person_category=incident.root_cause_category,
        actor=actor if actor is not None and actor.is_authenticated else None,
        actor_name=actor.get_username() if actor is not None else "",
    )
