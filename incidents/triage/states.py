"""Triage states. Kept apart from the models so the run models can name them without a cycle.

`Incident.status` stays the analysis state (queued, running, done, failed) that CI scripts
poll; the triage state is a field of its own."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class TriageStatus(models.TextChoices):
    NEW = "new", _("New")
    INVESTIGATING = "investigating", _("Investigating")
    ROOT_CAUSED = "root_caused", _("Root caused")
    RESOLVED = "resolved", _("Resolved")
    DUPLICATE = "duplicate", _("Duplicate")
    WONT_FIX = "wont_fix", _("Won't fix")


# The states a meeting still has to talk about.
OPEN_STATES = (TriageStatus.NEW, TriageStatus.INVESTIGATING)
