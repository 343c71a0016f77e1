"""How the analyzer's agreement with people moved over time: one row per week or month,
by when each incident's latest verdict was set (`incidents.triage.accuracy.latest_verdicts`).

The newest buckets are shown back to the oldest with verdicts, a quiet one as an empty row,
so a gap reads as a gap instead of vanishing from the chart.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count
from django.db.models.functions import TruncMonth, TruncWeek

from incidents.triage.accuracy import AGREES, DEFAULT_PERIOD, Agreement, latest_verdicts

MAX_PERIODS = {"month": 24, "week": 26}  # the newest buckets the over-time view shows


@dataclass(frozen=True)
class PeriodRow:
    start: dt.date
    label: str  # 2026-03 or 2026-W09
    agreement: Agreement


@dataclass(frozen=True)
class OverTime:
    period: str
    rows: list[PeriodRow]  # oldest first, gaps filled with empty rows
    earlier_left_out: bool  # older buckets exist beyond MAX_PERIODS

    @property
    def busiest(self) -> int:
        return max((row.agreement.total for row in self.rows), default=0)


def agreement_over_time(period: str = DEFAULT_PERIOD) -> OverTime:
    """Agreement per week or month, by when each incident's latest verdict was set."""
    trunc = TruncMonth if period == "month" else TruncWeek
    buckets = (
        latest_verdicts()
        .annotate(bucket=trunc("at"))
        .order_by()
        .values("bucket")
        .annotate(total=Count("pk"), agreed=Count("pk", filter=AGREES))
    )
    counts = {
        _as_date(row["bucket"]): Agreement(total=row["total"], agreed=row["agreed"])
        for row in buckets
    }
    shown = _newest_buckets(sorted(counts), period)
    rows = [
        PeriodRow(
            start=start,
            label=_period_label(start, period),
            agreement=counts.get(start, Agreement()),
        )
        for start in shown
    ]
    earlier = bool(counts) and min(counts) < shown[0]
    return OverTime(period=period, rows=rows, earlier_left_out=earlier)


def _as_date(bucket: dt.datetime | dt.date) -> dt.date:
    return bucket.date() if isinstance(bucket, dt.datetime) else bucket


def _newest_buckets(starts: list[dt.date], period: str) -> list[dt.date]:
    """Every bucket back from the newest one with verdicts, up to MAX_PERIODS, so a quiet
    month shows as a gap instead of vanishing."""
    if not starts:
        return []
    shown, current = [], starts[-1]
    while current >= starts[0] and len(shown) < MAX_PERIODS[period]:
        shown.append(current)
        current = _previous_start(current, period)
    return shown[::-1]


def _previous_start(start: dt.date, period: str) -> dt.date:
    if period == "week":
        return start - dt.timedelta(days=7)
    if start.month == 1:
        return start.replace(year=start.year - 1, month=12)
    return start.replace(month=start.month - 1)


def _period_label(start: dt.date, period: str) -> str:
    if period == "week":
        year, week, _ = start.isocalendar()
        return f"{year}-W{week:02d}"
    return f"{start:%Y-%m}"
