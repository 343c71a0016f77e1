"""Writes of the triage workflow. Every change is validated as a whole before anything is
saved (a bad value changes nothing), then recorded in the activity log field by field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from analyzers.library.matching import taxonomy
from incidents.accounts.activity import activity_record, activity_record_changes
from incidents.accounts.models import Verb
from incidents.runs.models import Incident
from incidents.triage.models import Comment, RootCauseVerdict, Tag, Ticket
from incidents.triage.states import TriageStatus
from incidents.triage.tickets import TicketInvalid, ticket_key, ticket_url_clean

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
MAX_TEXT = 20_000
MAX_TAGS = 20
MAX_TICKETS = 20
TAG_SHAPE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,39}$")
# ASCII digits only: `\d` matches any script's digits, and int() reads "INC-٣" as 3.
INCIDENT_ID = re.compile(r"^(?:INC-)?([0-9]+)$", re.IGNORECASE)


# What the web pages call each field in a refusal (the API names the field itself).
FIELD_LABELS = {
    "triage_status": gettext_lazy("Status"),
    "owner": gettext_lazy("Owner"),
    "tags": gettext_lazy("Tags"),
    "tickets": gettext_lazy("Tickets"),
    "root_cause": gettext_lazy("Root cause"),
    "root_cause_category": gettext_lazy("Root cause category"),
    "decision": gettext_lazy("Decision"),
    "duplicate_of": gettext_lazy("Duplicate of"),
    "body": gettext_lazy("Comment"),
}


class TriageInvalid(ValueError):
    """A value people sent that cannot be stored; names the field so forms and the API
    can point at it. The message is in the request's language (English for the API)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def for_people(self) -> str:
        """`Owner: no active user is called 'x'`, with the field as the page calls it."""
        label = FIELD_LABELS.get(self.field, self.field)
        return _("%(field)s: %(message)s") % {"field": label, "message": self.message}


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
            scalars[name] = _CLEANERS[name](changes[name])
    if "owner" in changes:
        scalars["owner"] = _owner_clean(changes["owner"])
    if "duplicate_of" in changes:
        scalars["duplicate_of"] = _duplicate_clean(incident, changes["duplicate_of"])
    status = scalars.get("triage_status", incident.triage_status)
    duplicate_of = scalars.get("duplicate_of", incident.duplicate_of)
    if status == TriageStatus.DUPLICATE and duplicate_of is None:
        raise TriageInvalid("duplicate_of", _("a duplicate names the incident it duplicates"))
    if status != TriageStatus.DUPLICATE and duplicate_of is not None:
        scalars["duplicate_of"] = None  # leaving 'duplicate' drops the link
    tags = _tags_clean(changes["tags"]) if "tags" in changes else None
    tickets = _tickets_clean(changes["tickets"]) if "tickets" in changes else None
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
    text = _text_clean("body", body)
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


# ------------------------------------------------------------------ field cleaners


def _status_clean(value: Any) -> str:
    if value not in TriageStatus.values:
        raise TriageInvalid(
            "triage_status",
            _("%(value)s is not one of %(choices)s")
            % {"value": repr(value), "choices": ", ".join(TriageStatus.values)},
        )
    return value


def _text_clean(field: str, value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TriageInvalid(field, _("must be text"))
    if len(value) > MAX_TEXT:
        raise TriageInvalid(field, _("is longer than %(limit)d characters") % {"limit": MAX_TEXT})
    return value.replace("\x00", "")


def _category_clean(value: Any) -> str:
    if value in (None, ""):
        return ""
    if value not in taxonomy():
        labels = ", ".join(sorted(taxonomy()))
        raise TriageInvalid(
            "root_cause_category",
            _("%(value)s is not one of %(choices)s") % {"value": repr(value), "choices": labels},
        )
    return value


_CLEANERS = {
    "triage_status": _status_clean,
    "root_cause": lambda value: _text_clean("root_cause", value),
    "decision": lambda value: _text_clean("decision", value),
    "root_cause_category": _category_clean,
}


def _owner_clean(value: Any) -> AbstractBaseUser | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise TriageInvalid("owner", _("must be a user name"))
    user_model = get_user_model()
    try:
        return user_model.objects.get(**{user_model.USERNAME_FIELD: value, "is_active": True})
    except user_model.DoesNotExist:
        raise TriageInvalid(
            "owner", _("no active user is called %(name)s") % {"name": repr(value)}
        ) from None


def _duplicate_clean(incident: Incident, value: Any) -> Incident | None:
    if value in (None, ""):
        return None
    found = INCIDENT_ID.match(str(value).strip())
    if not found:
        raise TriageInvalid(
            "duplicate_of",
            _("%(value)s is not an incident id such as INC-7") % {"value": repr(value)},
        )
    number = int(found.group(1))
    if number == incident.pk:
        raise TriageInvalid("duplicate_of", _("an incident cannot duplicate itself"))
    original = Incident.objects.filter(pk=number).first()
    if original is None:
        raise TriageInvalid("duplicate_of", _("INC-%(number)d does not exist") % {"number": number})
    return original


def _as_list(field: str, value: Any) -> list[str]:
    """A list, or one comma/newline separated string (what a form field sends)."""
    if value is None:
        return []
    if isinstance(value, str):
        value = re.split(r"[,\n]", value)
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise TriageInvalid(field, _("must be a list of text"))
    return [v.strip() for v in value if v.strip()]


def _tags_clean(value: Any) -> list[str]:
    tags: list[str] = []
    for raw in _as_list("tags", value):
        tag = raw.lower().replace(" ", "-")
        if not TAG_SHAPE.match(tag):
            raise TriageInvalid(
                "tags",
                _("%(tag)s: a tag is up to 40 letters, digits, '.', '_' or '-'")
                % {"tag": repr(raw)},
            )
        if tag not in tags:
            tags.append(tag)
    if len(tags) > MAX_TAGS:
        raise TriageInvalid("tags", _("at most %(limit)d tags") % {"limit": MAX_TAGS})
    return tags


def _tickets_clean(value: Any) -> list[str]:
    urls: list[str] = []
    for raw in _as_list("tickets", value):
        try:
            url = ticket_url_clean(raw)
        except TicketInvalid as invalid:
            raise TriageInvalid("tickets", str(invalid)) from None
        if url not in urls:
            urls.append(url)
    if len(urls) > MAX_TICKETS:
        raise TriageInvalid("tickets", _("at most %(limit)d tickets") % {"limit": MAX_TICKETS})
    return urls


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
