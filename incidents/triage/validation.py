"""What a triage change may hold: each field's check, and the refusal that names the field.

Every check raises `TriageInvalid` with a message in the request's language, so a form can
show it beside the field and the API can return it; nothing is saved until every field sent
has passed (`incidents.triage.services.triage_clean`).
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from analyzers.library.matching import taxonomy
from incidents.runs.models import Incident
from incidents.triage.states import TriageStatus
from incidents.triage.tickets import TicketInvalid, ticket_url_clean

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


# ------------------------------------------------------------------ field cleaners


def status_clean(value: Any) -> str:
    if value not in TriageStatus.values:
        raise TriageInvalid(
            "triage_status",
            _("%(value)s is not one of %(choices)s")
            % {"value": repr(value), "choices": ", ".join(TriageStatus.values)},
        )
    return value


def text_clean(field: str, value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TriageInvalid(field, _("must be text"))
    if len(value) > MAX_TEXT:
        raise TriageInvalid(field, _("is longer than %(limit)d characters") % {"limit": MAX_TEXT})
    return value.replace("\x00", "")


def category_clean(value: Any) -> str:
    if value in (None, ""):
        return ""
    if value not in taxonomy():
        labels = ", ".join(sorted(taxonomy()))
        raise TriageInvalid(
            "root_cause_category",
            _("%(value)s is not one of %(choices)s") % {"value": repr(value), "choices": labels},
        )
    return value


CLEANERS = {
    "triage_status": status_clean,
    "root_cause": lambda value: text_clean("root_cause", value),
    "decision": lambda value: text_clean("decision", value),
    "root_cause_category": category_clean,
}


def owner_clean(value: Any) -> AbstractBaseUser | None:
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


def duplicate_clean(incident: Incident, value: Any) -> Incident | None:
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


def tags_clean(value: Any) -> list[str]:
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


def tickets_clean(value: Any) -> list[str]:
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
