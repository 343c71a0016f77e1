"""The query parameters of `GET /api/incidents/`, as the schema documents them.

`incidents.triage.listing` reads and validates them (one reading for the page, the meeting
view and the API); this class only declares them, with what each accepts."""

from __future__ import annotations

from ninja import Field, Schema

from incidents.runs.models import RunState
from incidents.triage.listing import DEFAULT_SORT, MAX_PER_PAGE, NO_OWNER, PER_PAGE, SORTS
from incidents.triage.states import TriageStatus

LIST = "A comma lists several values."


def _choices(values: list[str]) -> str:
    return ", ".join(f"`{value}`" for value in values)


class IncidentListParams(Schema):
    category: str | None = Field(None, description=f"Analyzer category, e.g. `hccl`. {LIST}")
    triage_status: str | None = Field(None, description=f"{_choices(TriageStatus.values)}. {LIST}")
    status: str | None = Field(
        None, description=f"Analysis state: {_choices(RunState.values)}. {LIST}"
    )
    owner: str | None = Field(None, description=f"User names; `{NO_OWNER}` for unowned. {LIST}")
    tag: str | None = Field(None, description=f"Tags. {LIST}")
    code: str | None = Field(None, description=f"Error codes, e.g. `507014`. {LIST}")
    ticket: str | None = Field(None, description=f"Ticket keys (`PROJ-9`) or URL parts. {LIST}")
    since: str | None = Field(None, description="Uploaded on or after this day, YYYY-MM-DD.")
    until: str | None = Field(None, description="Uploaded on or before this day, YYYY-MM-DD.")
    q: str | None = Field(
        None, description="Words in the title, first error, codes or file names; or `INC-n`."
    )
    sort: str | None = Field(
        None,
        description=f"{_choices(list(SORTS))}; a leading `-` sorts descending. "
        f"Default `{DEFAULT_SORT}`.",
    )
    page: int | None = Field(None, ge=1, description="1-based page number.")
    per_page: int | None = Field(
        None, ge=1, description=f"Rows per page, default {PER_PAGE}, at most {MAX_PER_PAGE}."
    )
