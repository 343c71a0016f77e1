"""The models of the one `incidents` Django app, gathered where Django looks for them.

Each capability keeps its models in its own package; they import the run models from
`incidents.runs.models`, never this module, so there is no import cycle. Migrations and
code keep using `incidents.models.<Name>`."""

from incidents.accounts.models import Activity
from incidents.library.models import (
    Case,
    CaseIncident,
    CaseKey,
    SearchIndexFormat,
    SearchTerm,
    TermVariant,
)
from incidents.runs.models import (
    AnalysisRun,
    ApiToken,
    ApiTokenQuerySet,
    Bundle,
    Incident,
    IncidentQuerySet,
    RunState,
    fingerprint_of,
    token_digest,
)
from incidents.tree.models import TreeMark, TreeMarkRevision
from incidents.triage.models import Comment, RootCauseVerdict, Tag, Ticket

__all__ = [
    "Activity",
    "AnalysisRun",
    "ApiToken",
    "ApiTokenQuerySet",
    "Bundle",
    "Case",
    "CaseIncident",
    "CaseKey",
    "Comment",
    "Incident",
    "IncidentQuerySet",
    "RootCauseVerdict",
    "RunState",
    "SearchIndexFormat",
    "SearchTerm",
    "Tag",
    "TermVariant",
    "Ticket",
    "TreeMark",
    "TreeMarkRevision",
    "fingerprint_of",
    "token_digest",
]
