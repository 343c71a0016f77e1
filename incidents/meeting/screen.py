"""What one meeting screen shows about an incident: the verdict and its proof, where each
rank stopped, similar incidents and cases, and the triage state with its discussion.

Read from the latest finished analysis (a re-analysis still running does not blank the
screen) and the triage fields on the incident."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils.safestring import SafeString

from incidents.evidence.links import file_url
from incidents.library import selectors as library
from incidents.models import AnalysisRun, Comment, Incident, RunState, fingerprint_of
from incidents.triage.markdown import render_markdown
from incidents.triage.states import TriageStatus

SIMILAR_SHOWN = 5
TABLE_RANKS = 64  # the chart draws every rank; the fallback table stops here


@dataclass(frozen=True)
class RankBar:
    """One rank's bar in the compact timeline: how far it got and how it ended."""

    rank: int
    checkpoints: int
    last: str
    status: str
    culprit: bool


@dataclass(frozen=True)
class CommentView:
    author: str
    created_at: Any
    body_html: SafeString


@dataclass(frozen=True)
class MeetingScreen:
    incident: Incident
    run: AnalysisRun | None
    diagnosis: dict[str, Any] = field(default_factory=dict)
    first_error_url: str = ""
    bars: list[RankBar] = field(default_factory=list)
    case_matches: list[Any] = field(default_factory=list)
    similar: list[Incident] = field(default_factory=list)
    comments: list[CommentView] = field(default_factory=list)
    decision_html: str = ""  # sanitised Markdown HTML (SafeString), empty when none

    @property
    def culprit_ranks(self) -> list[int]:
        return list(self.diagnosis.get("culprit_ranks") or [])

    @property
    def last_common_checkpoint(self) -> str:
        """The qualified form (`decode step 137 / layer 41 / …`) when the report has it."""
        return str(
            self.diagnosis.get("last_common_checkpoint_qualified")
            or self.diagnosis.get("last_common_checkpoint")
            or ""
        )

    @property
    def table_bars(self) -> list[RankBar]:
        return self.bars[:TABLE_RANKS]

    def chart_data(self) -> dict[str, list[Any]]:
        """Column lists for static/js/meeting.js (passed with `json_script`)."""
        return {
            "ranks": [bar.rank for bar in self.bars],
            "checkpoints": [bar.checkpoints for bar in self.bars],
            "last": [bar.last for bar in self.bars],
            "status": [bar.status for bar in self.bars],
            "culprit": [bar.culprit for bar in self.bars],
        }


def meeting_screen(incident: Incident) -> MeetingScreen:
    run = _finished_run(incident)
    report = (run.report or {}) if run is not None else {}
    diagnosis = report.get("diagnosis") or {}
    first_error = diagnosis.get("first_error") or {}
    return MeetingScreen(
        incident=incident,
        run=run,
        diagnosis=diagnosis,
        first_error_url=_ref_url(incident, first_error),
        bars=rank_bars(report),
        case_matches=library.case_matches(report or None, incident) if run else [],
        similar=list(
            library.similar_incidents(incident, fingerprint_of(report or None), SIMILAR_SHOWN)
        ),
        comments=comment_views(incident),
        decision_html=render_markdown(incident.decision) if incident.decision else "",
    )


def rank_bars(report: dict[str, Any]) -> list[RankBar]:
    """Each rank's checkpoint count and last checkpoint, by rank number."""
    culprits = set((report.get("diagnosis") or {}).get("culprit_ranks") or [])
    bars = [
        RankBar(
            rank=int(row["rank"]),
            checkpoints=int(row.get("checkpoints") or 0),
            last=str(row.get("last_checkpoint_qualified") or row.get("last_checkpoint") or ""),
            status=str(row.get("status") or ""),
            culprit=row["rank"] in culprits,
        )
        for row in report.get("ranks") or []
        if isinstance(row.get("rank"), int)
    ]
    return sorted(bars, key=lambda bar: bar.rank)


def comment_views(incident: Incident) -> list[CommentView]:
    """The discussion, oldest first, each comment rendered as sanitised HTML."""
    return [
        CommentView(c.author_name, c.created_at, render_markdown(c.body))
        for c in Comment.objects.filter(incident=incident).order_by("created_at", "pk")
    ]


def owner_choices() -> QuerySet[AbstractBaseUser]:
    """Who an incident can be given to: every active user, by name."""
    model = get_user_model()
    return model.objects.filter(is_active=True).order_by(model.USERNAME_FIELD)


def status_choices() -> list[tuple[str, str]]:
    return list(TriageStatus.choices)


def _finished_run(incident: Incident) -> AnalysisRun | None:
    return incident.runs.filter(state=RunState.DONE).order_by("-pk").first()


def _ref_url(incident: Incident, ref: dict[str, Any]) -> str:
    if not ref.get("file"):
        return ""
    return file_url(incident.pk, str(ref["file"]), ref.get("line"))
