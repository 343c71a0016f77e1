"""Geometry of the accuracy page's agreement-over-time chart: one column per week or month,
its height the agreement in percent. Drawn as server-side SVG, so it needs no script under
the strict Content-Security-Policy; the table next to it holds the same figures for screen
readers and copying."""

from __future__ import annotations

from dataclasses import dataclass

from incidents.triage.accuracy_over_time import PeriodRow

WIDTH = 720
HEIGHT = 220
LEFT = 40  # room for the percent axis
BOTTOM = 30  # room for the period labels
TOP = 18  # room for the percent above a full bar
GAP = 0.25  # share of a column left empty between bars
MAX_BAR = 48  # a short series keeps slim bars
STUB = 2  # a 0% bar still shows, unlike a period with no verdicts
MAX_LABELS = 12  # at most this many period labels under the axis; the rest are skipped


@dataclass(frozen=True)
class Bar:
    row: PeriodRow
    x: float
    y: float
    width: float
    height: float
    label_x: float
    value_y: float  # where the percent is written, above the bar
    show_label: bool

    @property
    def is_empty(self) -> bool:
        return self.row.agreement.total == 0


@dataclass(frozen=True)
class GridLine:
    y: float
    percent: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    baseline: float
    label_y: float
    bars: list[Bar]
    grid: list[GridLine]


def agreement_chart(rows: list[PeriodRow]) -> Chart:
    """Place one bar per row; a period without verdicts keeps its slot but has no bar."""
    plot_height = HEIGHT - TOP - BOTTOM
    baseline = HEIGHT - BOTTOM
    slot = (WIDTH - LEFT) / max(1, len(rows))
    every = -(-len(rows) // MAX_LABELS) or 1
    bars = []
    for index, row in enumerate(rows):
        percent = row.agreement.percent
        height = 0.0 if percent is None else max(STUB, plot_height * percent / 100)
        width = min(slot * (1 - GAP), MAX_BAR)
        middle = LEFT + (index + 0.5) * slot
        bars.append(
            Bar(
                row=row,
                x=round(middle - width / 2, 1),
                y=round(baseline - height, 1),
                width=round(width, 1),
                height=round(height, 1),
                label_x=round(middle, 1),
                value_y=round(baseline - height - 4, 1),
                show_label=(len(rows) - 1 - index) % every == 0,
            )
        )
    grid = [GridLine(y=round(baseline - plot_height * p / 100, 1), percent=p) for p in (0, 50, 100)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        baseline=baseline,
        label_y=baseline + 18,
        bars=bars,
        grid=grid,
    )
