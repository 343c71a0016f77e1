"""Triage records around an incident: tags, ticket links, comments, and the root-cause
verdicts people set (compared with the analyzer's category to measure its accuracy)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from incidents.runs.models import Incident


class Tag(models.Model):
    """A short label shared across incidents (`moe`, `a2-cluster`, `nightly`)."""

    name = models.SlugField(max_length=40, unique=True)
    incidents = models.ManyToManyField(Incident, related_name="tags", blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Ticket(models.Model):
    """A tracker issue about the incident. `key` (PROJ-123, owner/repo#12) is what
    people search by; the URL is what they click."""

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="tickets")
    url = models.URLField(max_length=500)
    key = models.CharField(max_length=200, blank=True, db_index=True)
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["added_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["incident", "url"], name="ticket_once_per_incident")
        ]

    def __str__(self) -> str:
        return self.key or self.url


class Comment(models.Model):
    """A Markdown note in the incident's discussion; rendered sanitised, never edited."""

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    author_name = models.CharField(max_length=150, blank=True)
    body = models.TextField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"comment {self.pk} on {self.incident_id} by {self.author_name}"


class RootCauseVerdict(models.Model):
    """Each time a person sets an incident's root-cause category, next to what the
    analyzer said then. Kept even when the incident later changes, so agreement over
    time can be measured."""

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="verdicts")
    analyzer_category = models.CharField(max_length=20, blank=True)
    analyzer_confidence = models.FloatField(null=True, blank=True)
    person_category = models.CharField(max_length=20)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    actor_name = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.incident_id}: {self.analyzer_category} -> {self.person_category}"

    @property
    def agrees(self) -> bool:
        return self.analyzer_category == self.person_category
