"""The activity log: who changed what, on which incident or case, from what to what.

One row per changed field, written by the services that make the change. The row names
its verb as plain text (not a fixed choice list), so later workflows add verbs without a
schema change; `Verb` lists the ones in use.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.library.models import Case
from incidents.runs.models import Incident


class Verb:
    CREATED = "created"
    SET = "set"
    CHANGED = "changed"
    CLEARED = "cleared"
    REANALYZED = "reanalyzed"
    PROMOTED = "promoted"
    PUBLISHED = "published"
    ISSUED = "issued"
    REVOKED = "revoked"
    COMMENTED = "commented"


class ActivityQuerySet(models.QuerySet):
    def newest_first(self) -> ActivityQuerySet:
        return self.select_related("actor", "incident", "case").order_by("-at", "-pk")

    def about_incident(self, incident: Incident) -> ActivityQuerySet:
        return self.filter(incident=incident).newest_first()

    def about_case(self, case: Case) -> ActivityQuerySet:
        return self.filter(case=case).newest_first()


class Activity(models.Model):
    """One change. Targets are kept as links and as a label, so the entry still reads
    after the incident, case or user it names is deleted."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    actor_name = models.CharField(max_length=150, blank=True)
    verb = models.CharField(max_length=40)
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.SET_NULL, related_name="activity"
    )
    case = models.ForeignKey(
        Case, null=True, blank=True, on_delete=models.SET_NULL, related_name="activity"
    )
    target = models.CharField(max_length=200)  # "INC-7", "case cann-oom", "token rl_ab…"
    field = models.CharField(max_length=200, blank=True)  # "title", "triage hccl-timeout note"
    old = models.TextField(blank=True)
    new = models.TextField(blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    objects = ActivityQuerySet.as_manager()

    class Meta:
        verbose_name = _("activity entry")
        verbose_name_plural = _("activity")
        indexes = [
            models.Index(fields=["incident", "-at"], name="activity_incident_at"),
            models.Index(fields=["case", "-at"], name="activity_case_at"),
        ]

    def __str__(self) -> str:
        what = f" {self.field}" if self.field else ""
        return f"{self.actor_name or 'system'} {self.verb} {self.target}{what}"
