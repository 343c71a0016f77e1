"""Triage notes on the diagnosis tree of one incident: a node checked, or a branch overridden."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from incidents.runs.models import Incident


class TreeMark(models.Model):
    """What a person decided at one node of an incident's diagnosis tree (latest wins)."""

    class State(models.TextChoices):
        CHECKED = "checked", _("Checked")
        OVERRIDE = "override", _("Branch overridden")

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="tree_marks")
    node_id = models.CharField(max_length=64)
    state = models.CharField(max_length=10, choices=State)
    branch = models.CharField(max_length=64, blank=True)  # child node id, for overrides
    note = models.TextField(blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["incident", "node_id"], name="unique_tree_mark")
        ]
        verbose_name = _("triage mark")
        verbose_name_plural = _("triage marks")

    def __str__(self) -> str:
        return f"{self.incident.short_id} {self.node_id}: {self.state}"


class TreeMarkRevision(models.Model):
    """Every save of a node's mark, clearing included: the history behind `TreeMark`, so
    no note is lost when someone edits or clears it."""

    CLEARED = "cleared"

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="tree_history")
    node_id = models.CharField(max_length=64)
    state = models.CharField(max_length=10)  # a TreeMark.State, or "cleared"
    branch = models.CharField(max_length=64, blank=True)
    note = models.TextField(blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["incident", "node_id"], name="treemarkrev_node")]

    def __str__(self) -> str:
        return f"{self.incident_id} {self.node_id}: {self.state}"
