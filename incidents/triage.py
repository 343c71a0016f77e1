"""Writes of diagnosis-tree triage: a person's decision at one node of an incident's tree."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from incidents.models import Incident
from incidents.tree_models import TreeMark


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
    if state not in TreeMark.State.values:
        TreeMark.objects.filter(incident=incident, node_id=node_id).delete()
        return None
    mark, _ = TreeMark.objects.update_or_create(
        incident=incident,
        node_id=node_id,
        defaults={"state": state, "branch": branch, "note": note.strip(), "user": user},
    )
    return mark
