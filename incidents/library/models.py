"""The case library: known failures, their links to incidents, and the search index tables.

Seeded cases mirror `analyzers/knowledge/cases/*.yaml` (same ids as slugs; refreshed by
`manage.py load_knowledge`); promoted cases were created from root-caused incidents and
live only here. Saving a case keeps its search index entry current (see incidents.library.search).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from analyzers.library.matching import taxonomy
from incidents.runs.models import Incident

CATEGORY_CHOICES = [(label, label.replace("_", " ")) for label in sorted(taxonomy())]
HARDWARE_CHOICES = ["A2", "A3", "310P", "ascend", "cuda", "cpu", "any"]


class CaseSource(models.TextChoices):
    SEEDED = "seeded", _("Seeded from the knowledge files")
    PROMOTED = "promoted", _("Promoted from an incident")


class CaseQuerySet(models.QuerySet):
    def seeded(self) -> CaseQuerySet:
        return self.filter(source=CaseSource.SEEDED)

    def published(self) -> CaseQuerySet:
        """What search, the API and matching see: every case but unpublished drafts."""
        return self.filter(is_draft=False)

    def drafts(self) -> CaseQuerySet:
        return self.filter(is_draft=True)


# The fields a person reads and edits; the form, the API and the YAML loader share them.
CASE_TEXT_FIELDS = (
    "title",
    "category",
    "symptoms",
    "signatures",
    "codes",
    "operators",
    "hardware",
    "root_cause",
    "fix",
    "verify",
    "references",
    "tags",
)


class Case(models.Model):
    """One known failure: how it shows, why it happens, how to fix and verify it."""

    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=300)
    category = models.CharField(max_length=20, choices=CATEGORY_CHOICES, db_index=True)
    symptoms = models.JSONField(default=list, blank=True)
    signatures = models.JSONField(default=list, blank=True)  # regexes over error lines
    codes = models.JSONField(default=list, blank=True)
    operators = models.JSONField(default=list, blank=True)
    hardware = models.JSONField(default=list, blank=True)
    root_cause = models.TextField()
    fix = models.TextField()
    verify = models.JSONField(default=list, blank=True)
    references = models.JSONField(default=list, blank=True)
    tags = models.JSONField(default=list, blank=True)
    strategy = models.JSONField(default=list, blank=True)
    # Chinese text by language and field name, {"zh": {"title": ..., "symptoms": [...]}}:
    # a seeded case's from its knowledge file; a promoted case's from its report, for the
    # fields saved as the report prefilled them (incidents.library.promoted_chinese).
    translations = models.JSONField(default=dict, blank=True)
    source = models.CharField(max_length=10, choices=CaseSource, default=CaseSource.PROMOTED)
    # A case promoted from an incident starts as a draft: shown only on its own page and the
    # library's draft list, kept out of search, the API and matching until it is published.
    is_draft = models.BooleanField(default=False, db_index=True)
    knowledge_file = models.CharField(max_length=100, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # PostgreSQL only (GIN-indexed in the migration); SQLite keeps its FTS5 table instead.
    search_vector = SearchVectorField(null=True, editable=False)
    incidents = models.ManyToManyField(Incident, through="CaseIncident", related_name="cases")

    objects = CaseQuerySet.as_manager()

    class Meta:
        ordering = ["title", "pk"]
        verbose_name = _("case")
        verbose_name_plural = _("cases")

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("library:case", kwargs={"slug": self.slug})

    @property
    def is_seeded(self) -> bool:
        return self.source == CaseSource.SEEDED


class CaseIncident(models.Model):
    """An incident a case explains: matched by the analyzer (scored) or promoted from it."""

    class Source(models.TextChoices):
        MATCHED = "matched", _("Matched by the analyzer")
        PROMOTED = "promoted", _("Promoted to this case")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="incident_links")
    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="case_links")
    score = models.FloatField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source, default=Source.MATCHED)
    linked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["case", "incident"], name="unique_case_incident")
        ]

    def __str__(self) -> str:
        return f"{self.case.slug} <- {self.incident.short_id}"


class CaseKey(models.Model):
    """Exact values a case can be filtered by: error codes, operators, hardware."""

    class Kind(models.TextChoices):
        CODE = "code"
        OPERATOR = "operator"
        HARDWARE = "hardware"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="keys")
    kind = models.CharField(max_length=10, choices=Kind)
    value = models.CharField(max_length=200)

    class Meta:
        indexes = [models.Index(fields=["kind", "value"], name="casekey_kind_value")]

    def __str__(self) -> str:
        return f"{self.kind}={self.value}"


class TermField(models.CharField):
    """A vocabulary word (pg_trgm-indexed on PostgreSQL; see incidents.library.typos)."""


class SearchTerm(models.Model):
    """The search vocabulary: every latin word of the library, for typo correction."""

    term = TermField(max_length=100, unique=True)
    df = models.PositiveIntegerField(default=1)  # how many cases use it (ties go to common)

    def __str__(self) -> str:
        return self.term


class TermVariant(models.Model):
    """A vocabulary word with one letter deleted, pointing at the word (a deletion index:
    two words within a small edit distance share a variant)."""

    variant = models.CharField(max_length=100, db_index=True)
    term = models.CharField(max_length=100)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["variant", "term"], name="unique_term_variant")
        ]

    def __str__(self) -> str:
        return f"{self.variant} -> {self.term}"


class SearchIndexFormat(models.Model):
    """Which build of the search document and vector the stored index holds (one row), so
    a start after an upgrade that changed them rebuilds the index by itself."""

    version = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"search index format {self.version}"
