"""Activity entries as people read them: "changed triage status: New → Investigating",
tags as tags, tickets as links with their key, a duplicate as a link to the original.

The log stores every value as text (incidents.accounts.activity); this module only reads
it back, field by field, so a field it does not know still shows as plain text."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from incidents.accounts.models import Activity
from incidents.triage.states import TriageStatus
from incidents.triage.tickets import ticket_key
from incidents.triage.validation import INCIDENT_ID

VALUE_CHARS = 300

FIELD_LABELS = {
    "triage_status": _("triage status"),
    "owner": _("owner"),
    "tags": _("tags"),
    "tickets": _("tickets"),
    "root_cause": _("root cause"),
    "root_cause_category": _("root-cause category"),
    "decision": _("decision"),
    "duplicate_of": _("duplicate of"),
    "title": _("title"),
}
VERB_LABELS = {
    "created": _("created"),
    "set": _("set"),
    "changed": _("changed"),
    "cleared": _("cleared"),
    "reanalyzed": _("analyzed again"),
    "promoted": _("promoted to a case"),
    "commented": _("commented"),
    "issued": _("issued"),
    "revoked": _("revoked"),
}
# How a field's value reads: a kind the template knows how to draw.
FIELD_KINDS = {
    "triage_status": "status",
    "tags": "tags",
    "tickets": "links",
    "duplicate_of": "links",
    "root_cause": "prose",
    "decision": "prose",
}


@dataclass(frozen=True)
class ActivityValue:
    kind: str  # "empty", "text", "prose", "status", "tags" or "links"
    text: str = ""
    items: list[tuple[str, str]] = field(default_factory=list)  # (label, url) of tags, links


@dataclass(frozen=True)
class ActivityLine:
    verb: str
    field: str
    old: ActivityValue
    new: ActivityValue


def activity_line(entry: Activity) -> ActivityLine:
    kind = "prose" if entry.verb == "commented" else FIELD_KINDS.get(entry.field, "text")
    return ActivityLine(
        verb=str(VERB_LABELS.get(entry.verb, entry.verb)),
        field=str(FIELD_LABELS.get(entry.field, entry.field)),
        old=activity_value(kind, entry.old),
        new=activity_value(kind, entry.new),
    )


def activity_value(kind: str, raw: str) -> ActivityValue:
    if not raw.strip():
        return ActivityValue("empty")
    if kind == "status":
        label = TriageStatus(raw).label if raw in TriageStatus.values else raw
        return ActivityValue("status", text=str(label), items=[(raw, "")])
    if kind == "tags":
        names = [name.strip() for name in raw.split(",") if name.strip()]
        list_url = reverse("incidents:list")
        return ActivityValue("tags", items=[(name, f"{list_url}?tag={name}") for name in names])
    if kind == "links":
        return ActivityValue("links", items=[_link(item) for item in raw.split() if item])
    text = raw if len(raw) <= VALUE_CHARS else raw[: VALUE_CHARS - 1] + "…"
    return ActivityValue(kind, text=text)


def _link(value: str) -> tuple[str, str]:
    """A ticket URL shown by its key, or an incident id linked to its page."""
    found = INCIDENT_ID.match(value)
    if found:
        try:
            return f"INC-{found.group(1)}", reverse(
                "incidents:detail", kwargs={"number": int(found.group(1))}
            )
        except NoReverseMatch:
            return value, ""
    if value.startswith(("http://", "https://")):
        return ticket_key(value) or value, value
    return value, ""
