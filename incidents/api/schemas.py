"""Shapes of the API's answers, as the OpenAPI description shows them to a client author.

Each field's description is what a CI author reads in /api/docs/; the handlers fill these
from the same model methods the pages use, so the documented shape is the served shape.
"""

from __future__ import annotations

from typing import Any

from ninja import Field, Schema


class ApiError(Schema):
    """Every error answer, whatever produced it."""

    error: str = Field(description="What went wrong, in a sentence a person can act on.")
    status: int = Field(description="The HTTP status code, repeated.")
    field: str | None = Field(
        None, description="The request field with the bad value (validation errors only)."
    )
    errors: Any = Field(
        None,
        description="Upload: Django's form errors by field. Validation: every bad field "
        "as {field, message}.",
    )
    code: str | None = Field(
        None, description="Server faults: `disk_full`, `database_unavailable`."
    )
    retry_after: int | None = Field(None, description="Seconds to wait before retrying (503).")


class IncidentLinks(Schema):
    id: str = Field(description="The incident's id, `INC-<n>`.", examples=["INC-7"])
    url: str = Field(description="Absolute URL of the incident page.")
    status_url: str = Field(description="Absolute URL to poll for the analysis: GET it.")


class IncidentStatus(IncidentLinks):
    title: str
    status: str = Field(description="Latest analysis run: `queued`, `running`, `done`, `failed`.")
    progress: int = Field(description="Percent done, 0–100.")
    step: str | None = Field(None, description="What the worker is doing now.")
    error: str | None = Field(description="Why the analysis failed (status `failed`).")
    analyzer_version: str | None = None
    started_at: str | None = Field(None, description="ISO 8601, when the run started.")
    finished_at: str | None = Field(None, description="ISO 8601, when the run ended.")
    report: dict[str, Any] | None = Field(
        description="The analysis report once `done` (analyzers/schema/report.schema.json)."
    )


class Highlight(Schema):
    title: str = Field(description="The title, matched words in `<mark>`.")
    snippet: str = Field(description="An excerpt around the match, HTML with `<mark>`.")


class CaseHit(Schema):
    id: str = Field(description="The case's slug.")
    title: str
    category: str
    codes: list[str]
    operators: list[str]
    hardware: list[str]
    source: str = Field(description="`seeded` (knowledge files) or `promoted` (from an incident).")
    exact: bool = Field(description="An error code or operator matched exactly.")
    url: str = Field(description="Path of the case page.")
    highlight: Highlight


class CaseList(Schema):
    count: int = Field(description="Number of matching cases (see count_is_capped).")
    count_is_capped: bool = Field(description="True when counting stopped at a cap.")
    page: int
    per_page: int
    has_next: bool
    corrections: dict[str, str] = Field(description="Misspelt query words and the word used.")
    results: list[CaseHit]


class LinkedIncident(Schema):
    id: str = Field(description="`INC-<n>`.")
    score: float | None = Field(description="Match score when the analyzer linked it.")
    source: str = Field(description="How it was linked: matched or promoted.")


class CaseDetail(Schema):
    id: str = Field(description="The case's slug.")
    url: str = Field(description="Absolute URL of the case page.")
    title: str
    category: str
    symptoms: list[Any]
    signatures: list[Any] = Field(description="Regular expressions over error lines.")
    codes: list[Any]
    operators: list[Any]
    hardware: list[Any]
    root_cause: str
    fix: str
    verify: list[Any]
    references: list[Any]
    tags: list[Any]
    source: str
    incidents: list[LinkedIncident]
