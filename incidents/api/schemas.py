"""Shapes of the API's answers, as the OpenAPI description shows them to a client author.

Each field's description is what a CI author reads in /api/docs/; the handlers fill these
from the same model methods the pages use, so the documented shape is the served shape.
"""

from __future__ import annotations

from typing import Any

from ninja import Field, Schema
from pydantic import ConfigDict

from incidents.runs.models import RunState
from incidents.triage.states import TriageStatus
from incidents.triage.validation import MAX_TEXT

# What the triage services accept in a text field, for the schema (they do the checking).
TEXT_LIMIT = {"maxLength": MAX_TEXT}


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


# Answers any operation may give: 400 for a query string that is not UTF-8 or holds control
# characters (`RefuseBadQueryStrings`) or a JSON body that is not JSON text, 401 without an
# accepted token or session, 429 past the caller's request budget (every call counts).
COMMON_ERRORS = {400: ApiError, 401: ApiError, 429: ApiError}


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
    translations: dict[str, dict[str, Any]] = Field(
        description='A seeded case\'s text in other languages: `{"zh": {"title": …}}`.'
    )
    incidents: list[LinkedIncident]


# ------------------------------------------------------------------ triage

TRIAGE_STATES = [state.value for state in TriageStatus]
RUN_STATES = [state.value for state in RunState]


class TicketLink(Schema):
    url: str
    key: str | None = Field(description="`PROJ-123` or `owner/repo#12` when recognised.")


class IncidentTriage(Schema):
    """The columns the incident list shows; the detail answer carries them too."""

    number: int = Field(description="The incident's number, the `n` of `INC-n`.")
    triage_status: str = Field(
        description="Where people are with it.", json_schema_extra={"enum": TRIAGE_STATES}
    )
    category: str | None = Field(description="The analyzer's failure category.")
    culprit_ranks: list[int] = Field(description="Ranks the analyzer blames.")
    first_error: str | None = Field(description="The first causal error line.")
    owner: str | None = Field(description="User name of whoever took it.")
    tags: list[str]
    tickets: list[TicketLink]
    created_at: str = Field(description="ISO 8601 upload time.")
    updated_at: str = Field(description="ISO 8601 time of the last change.")


class IncidentRow(IncidentTriage):
    id: str = Field(description="`INC-<n>`.", examples=["INC-7"])
    title: str
    status: str = Field(
        description="Analysis state (never the triage state).",
        json_schema_extra={"enum": RUN_STATES},
    )
    url: str = Field(description="Absolute URL of the incident page.")


class IncidentList(Schema):
    count: int = Field(description="Incidents matching the filters, on all pages.")
    next: str | None = Field(description="Absolute URL of the next page, same filters.")
    previous: str | None = Field(description="Absolute URL of the previous page.")
    results: list[IncidentRow]


class IncidentDetail(IncidentStatus, IncidentTriage):
    root_cause: str = Field(description="What people found, Markdown.")
    root_cause_category: str = Field(description="The category people settled on ('' unset).")
    decision: str = Field(description="What was decided, Markdown.")
    duplicate_of: str | None = Field(description="`INC-<n>` this one duplicates.")


class TriageChange(Schema):
    """Send only the fields to change; `null` or `""` clears owner, duplicate_of and texts."""

    model_config = ConfigDict(extra="forbid")

    triage_status: str | None = Field(None, json_schema_extra={"enum": TRIAGE_STATES})
    owner: str | None = Field(None, description="An active user's name.")
    tags: list[str] | str | None = Field(
        None, description="Replaces the tags: a list, or one comma-separated string."
    )
    tickets: list[str] | str | None = Field(
        None, description="Replaces the ticket links: http(s) URLs."
    )
    root_cause: str | None = Field(None, description="Markdown.", json_schema_extra=TEXT_LIMIT)
    root_cause_category: str | None = Field(None, description="A failure category.")
    decision: str | None = Field(None, description="Markdown.", json_schema_extra=TEXT_LIMIT)
    duplicate_of: str | int | None = Field(
        None, description="`INC-<n>` or `n`; needs triage_status `duplicate`."
    )


class CommentIn(Schema):
    model_config = ConfigDict(extra="forbid")

    body: str = Field(
        description="Markdown; raw HTML is not rendered. Some text besides spaces.",
        json_schema_extra={**TEXT_LIMIT, "pattern": r"\S"},
    )


class CommentOut(Schema):
    id: int
    author: str = Field(description="User name of who wrote it.")
    body: str = Field(description="As written, Markdown.")
    body_html: str = Field(description="Rendered and sanitised HTML.")
    created_at: str = Field(description="ISO 8601.")
