"""The over-time chart's geometry: bar heights are agreement percents, gaps keep a slot."""

from __future__ import annotations

import datetime as dt

from incidents.library.accuracy_chart import (
    BOTTOM,
    HEIGHT,
    MAX_LABELS,
    STUB,
    TOP,
    agreement_chart,
)
from incidents.triage.accuracy import Agreement
from incidents.triage.accuracy_over_time import PeriodRow

PLOT = HEIGHT - TOP - BOTTOM


def rows(*counts: tuple[int, int]) -> list[PeriodRow]:
    return [
        PeriodRow(
            start=dt.date(2026, 1, 5) + dt.timedelta(weeks=n),
            label=f"2026-W{n + 2:02d}",
            agreement=Agreement(total=total, agreed=agreed),
        )
        for n, (total, agreed) in enumerate(counts)
    ]


def test_bar_height_is_the_agreement_percent_of_the_plot():
    chart = agreement_chart(rows((4, 4), (4, 1), (0, 0), (3, 0)))
    full, quarter, quiet, none_right = chart.bars

    assert full.height == PLOT
    assert full.y == TOP
    assert quarter.height == PLOT / 4
    assert quarter.y + quarter.height == chart.baseline
    assert (quiet.is_empty, quiet.height) == (True, 0)
    assert (none_right.is_empty, none_right.height) == (False, STUB)  # 0% is not "no verdicts"
    assert full.value_y < full.y


def test_bars_sit_side_by_side_in_order():
    bars = agreement_chart(rows((1, 1), (1, 0), (2, 1))).bars

    assert bars[0].x < bars[1].x < bars[2].x
    assert bars[0].x + bars[0].width < bars[1].x
    assert [bar.row.label for bar in bars] == ["2026-W02", "2026-W03", "2026-W04"]


def test_long_series_label_only_some_periods_but_always_the_newest():
    bars = agreement_chart(rows(*[(1, 1)] * 24)).bars

    labelled = [bar for bar in bars if bar.show_label]
    assert len(labelled) <= MAX_LABELS
    assert bars[-1].show_label


def test_no_rows_is_an_empty_chart():
    chart = agreement_chart([])

    assert chart.bars == []
    assert [line.percent for line in chart.grid] == [0, 50, 100]
