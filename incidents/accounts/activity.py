"""Writes to the activity log, called by the services that change incidents, cases,
triage marks and tokens (see incidents.accounts.models)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from incidents.accounts.models import Activity, Verb
from incidents.library.models import Case
from incidents.models import Incident


def activity_record(
    *,
    actor: AbstractBaseUser | None,
    verb: str,
    target: str,
    incident: Incident | None = None,
    case: Case | None = None,
    field: str = "",
    old: Any = "",
    new: Any = "",
) -> Activity:
    """One entry; values that are not text (lists from a case form) are kept as JSON."""
    return Activity.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        actor_name=actor.get_username() if actor is not None else "",
        verb=verb,
        target=target[:200],
        incident=incident,
        case=case,
        field=field[:200],
        old=as_text(old),
        new=as_text(new),
    )


def activity_record_changes(
    *,
    actor: AbstractBaseUser | None,
    target: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    incident: Incident | None = None,
    case: Case | None = None,
    field_prefix: str = "",
) -> list[Activity]:
    """An entry per field whose value differs, named set / changed / cleared."""
    entries = []
    for name in sorted(set(before) | set(after)):
        old, new = as_text(before.get(name, "")), as_text(after.get(name, ""))
        if old == new:
            continue
        entry = activity_record(
            actor=actor,
            verb=change_verb(old, new),
            target=target,
            incident=incident,
            case=case,
            field=f"{field_prefix}{name}",
            old=old,
            new=new,
        )
        entries.append(entry)
    return entries


def change_verb(old: str, new: str) -> str:
    if not old:
        return Verb.SET
    return Verb.CHANGED if new else Verb.CLEARED


def as_text(value: Any) -> str:
    """Text as it is; an empty value as ''; a list (a case's codes, symptoms) as JSON."""
    if value is None or value == [] or value == {}:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
