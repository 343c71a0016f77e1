"""Writes of diagnosis-tree triage: a person's decision at one node of an incident's tree.

The current mark (`TreeMark`) is what the tree shows; every save, clearing included, also
adds a `TreeMarkRevision`, and each changed field goes to the activity log. So editing or
clearing someone else's note never loses it: its text stays in the node's history and the
log names who changed it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from incidents.accounts.activity import activity_record_changes
from incidents.models import Incident
from incidents.tree.models import TreeMark, TreeMarkRevision

MARK_FIELDS = ("state", "branch", "note")


def tree_mark_save(
    *,
    incident: Incident,
    node_id: str,
    state: str,
    branch: str = "",
    note: str = "",
    user: AbstractBaseUser | None,
) -> TreeMark | None:
    """Record (or with state "clear", remove) the mark on a node; the latest one wins."""
    with transaction.atomic():
        previous = (
            TreeMark.objects.select_for_update().filter(incident=incident, node_id=node_id).first()
        )
        mark = _apply(incident, node_id, state, branch, note.strip(), user)
        if _fields(previous) == _fields(mark):
            return mark
        _revise(incident, node_id, mark, user)
        activity_record_changes(
            actor=user,
            target=incident.short_id,
            incident=incident,
            before=_fields(previous),
            after=_fields(mark),
            field_prefix=f"triage {node_id} ",
        )
    return mark


def _apply(
    incident: Incident,
    node_id: str,
    state: str,
    branch: str,
    note: str,
    user: AbstractBaseUser | None,
) -> TreeMark | None:
    if state not in TreeMark.State.values:
        TreeMark.objects.filter(incident=incident, node_id=node_id).delete()
        return None
    mark, _ = TreeMark.objects.update_or_create(
        incident=incident,
        node_id=node_id,
        defaults={"state": state, "branch": branch, "note": note, "user": user},
    )
    return mark


def _revise(
    incident: Incident, node_id: str, mark: TreeMark | None, user: AbstractBaseUser | None
) -> None:
    values = _fields(mark) if mark else {"state": TreeMarkRevision.CLEARED}
    TreeMarkRevision.objects.create(incident=incident, node_id=node_id, user=user, **values)


def _fields(mark: TreeMark | None) -> dict[str, str]:
    if mark is None:
        return {name: "" for name in MARK_FIELDS}
    return {name: getattr(mark, name) for name in MARK_FIELDS}
