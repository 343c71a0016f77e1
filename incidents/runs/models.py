"""Incidents, their uploaded bundles, analysis runs and API tokens."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.triage.states import TriageStatus


class RunState(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class IncidentQuerySet(models.QuerySet):
    def newest_first(self) -> IncidentQuerySet:
        return self.select_related("created_by", "bundle").order_by("-created_at", "-pk")


class Incident(models.Model):
    """One failed job someone uploaded logs for. Shown as INC-<pk>; its URL never changes."""

    title = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=RunState, default=RunState.QUEUED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="incidents"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # What the latest finished analysis said, copied out of its report so the list can
    # filter and sort by it (see incidents.triage.summary).
    category = models.CharField(max_length=20, blank=True, db_index=True)
    culprit_ranks = models.JSONField(default=list, blank=True)
    first_error = models.CharField(max_length=300, blank=True)
    codes = models.CharField(max_length=500, blank=True)  # " 507014 EZ9999 ": word match
    file_names = models.TextField(blank=True)  # one bundle member per line, capped

    # What people decided (incidents.triage.services writes these, with activity).
    triage_status = models.CharField(
        max_length=20, choices=TriageStatus, default=TriageStatus.NEW, db_index=True
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_incidents",
    )
    root_cause = models.TextField(blank=True)  # Markdown
    # The failure class people settled on; compared with the analyzer's `category`.
    root_cause_category = models.CharField(max_length=20, blank=True)
    decision = models.TextField(blank=True)  # Markdown
    duplicate_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="duplicates"
    )

    objects = IncidentQuerySet.as_manager()

    class Meta:
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")

    def __str__(self) -> str:
        return f"{self.short_id} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("incidents:detail", kwargs={"number": self.pk})

    @property
    def short_id(self) -> str:
        return f"INC-{self.pk}"

    def latest_run(self) -> AnalysisRun | None:
        return self.runs.order_by("-pk").first()


class Bundle(models.Model):
    """The uploaded file. Bytes are stored once per SHA-256 (see incidents.runs.blobstore)."""

    incident = models.OneToOneField(Incident, on_delete=models.CASCADE, related_name="bundle")
    sha256 = models.CharField(max_length=64, db_index=True)
    original_name = models.CharField(max_length=255)
    size_bytes = models.BigIntegerField()
    uploaded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.original_name} ({self.sha256[:12]})"

    @property
    def path(self) -> Path:
        from incidents.runs import blobstore

        return blobstore.path_for(self.sha256)


class AnalysisRun(models.Model):
    """One pass of the analyzers over an incident's bundle. Re-analysis adds a run."""

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="runs")
    state = models.CharField(max_length=10, choices=RunState, default=RunState.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    step = models.CharField(max_length=200, blank=True)
    # The Celery delivery that claimed the run; a redelivery of the same message may
    # take the run over again after its worker died.
    claimed_by = models.CharField(max_length=64, blank=True)
    # The last delivery whose time limit ran out on this run; it may not claim the run, as
    # its claim can reach the database after the limit was recorded (incidents.runs.analysis).
    timed_out_delivery = models.CharField(max_length=64, blank=True)
    # How many times a worker started this run; a run that keeps killing its worker
    # (out of memory, hard time limit) is given up instead of being redelivered forever.
    attempts = models.PositiveSmallIntegerField(default=0)
    # Last sign of life: set when the run is queued or re-sent, and by its worker while it
    # runs. The sweeper (incidents.runs.sweeper) re-queues a run whose sign of life is too old.
    heartbeat_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # How many times the sweeper sent the run's message again because the broker lost it.
    requeues = models.PositiveSmallIntegerField(default=0)
    # Extra checkpoint regexes for this run only (site-wide ones live in settings).
    checkpoint_patterns = models.JSONField(default=list, blank=True)
    # The report's diagnosis fingerprint, copied out so repeats are found by an index.
    fingerprint = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    analyzer_version = models.CharField(max_length=40, blank=True)
    report = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("analysis run")
        verbose_name_plural = _("analysis runs")

    def __str__(self) -> str:
        return f"run {self.pk} of {self.incident_id}: {self.state}"

    def save(self, *args, **kwargs) -> None:
        self.fingerprint = fingerprint_of(self.report) if self.state == RunState.DONE else ""
        super().save(*args, **kwargs)

    @property
    def is_active(self) -> bool:
        return self.state in (RunState.QUEUED, RunState.RUNNING)

    def show_on_incident(self, state: str) -> None:
        """The incident shows its latest run: copy `state` unless a newer run exists, and
        with a finished report, what it concluded."""
        from incidents.triage.summary import report_summary

        fields: dict = {"status": state, "updated_at": timezone.now()}
        if state == RunState.DONE and self.report:
            fields |= report_summary(self.report)
        Incident.objects.filter(pk=self.incident_id).exclude(runs__pk__gt=self.pk).update(**fields)

    def status_dict(self, *, with_report: bool) -> dict:
        """What the API and the page's live status poll answer."""
        data = {
            "status": self.state,
            "progress": self.progress,
            "step": self.step,
            "error": self.error or None,
            "analyzer_version": self.analyzer_version or None,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }
        if with_report:
            data["report"] = self.report if self.state == RunState.DONE else None
        return data


def fingerprint_of(report: dict | None) -> str:
    """The diagnosis fingerprint a report carries ('' when none)."""
    return str(((report or {}).get("diagnosis") or {}).get("fingerprint") or "")[:64]


def token_digest(token: str) -> str:
    """Tokens are long random strings, so a plain SHA-256 is enough to store them safely."""
    return hashlib.sha256(token.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def usable(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())


class ApiToken(models.Model):
    """A bearer token for the HTTP API. Only its digest is stored, so a leaked database
    does not leak working tokens; the prefix tells tokens apart in lists."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)  # first characters, to tell tokens apart
    name = models.CharField(max_length=100, blank=True)  # what the owner uses it for
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()
    # Kept (not deleted) on revocation, so the owner still sees what was revoked and when.
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_usable(self) -> bool:
        return self.revoked_at is None and not self.is_expired
