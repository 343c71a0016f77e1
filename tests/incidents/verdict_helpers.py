"""Builders for root-cause verdict tests: incidents the analyzer put in a category, and
people settling them through the real triage service at a chosen time."""

from __future__ import annotations

import datetime as dt

from incidents.models import Incident, RootCauseVerdict
from incidents.triage.services import triage_update
from tests.incidents.library_helpers import make_incident, shape_report


def at(month: int, day: int, hour: int = 12, minute: int = 0) -> dt.datetime:
    """A moment in 2026, in UTC."""
    return dt.datetime(2026, month, day, hour, minute, tzinfo=dt.UTC)


def analyzed(category: str | None, confidence: float | None = None, title: str = "job") -> Incident:
    """An incident the analyzer put in `category` (None: its analysis never finished)."""
    if category is None:
        return make_incident(None, title=title)
    report = shape_report()
    report["diagnosis"]["category"] = category
    if confidence is not None:
        report["diagnosis"]["confidence"] = confidence
    return make_incident(report, title=title)


def settle(incident: Incident, actor, category: str, when: dt.datetime) -> RootCauseVerdict:
    """A person sets the root-cause category through the triage service, dated `when`."""
    triage_update(incident=incident, actor=actor, changes={"root_cause_category": category})
    verdict = incident.verdicts.order_by("-pk").first()
    RootCauseVerdict.objects.filter(pk=verdict.pk).update(at=when)
    verdict.refresh_from_db()
    return verdict
