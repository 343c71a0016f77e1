"""The query string of a timeline request: axis, zoom window, rank filter, straggler
overlay and point budget.

The incident page keeps the same parameters (`axis`, `ranks`, `x0`, `x1`, `stragglers`) in
its own URL, so a view pasted into a ticket opens the same way.

Bad input (a window with x1 <= x0, an unknown axis, `ranks=7-2`) raises TimelineQueryError,
whose text the view shows as a 400 answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext

from incidents.timeline.rankfilter import parse_rank_filter

AXES = ("logical", "time")
DEFAULT_BUDGET = 20_000
MIN_BUDGET = 100
MAX_BUDGET = 200_000
SWITCH_ON = frozenset({"1", "on", "true", "yes"})
SWITCH_OFF = frozenset({"", "0", "off", "false", "no"})


class TimelineQueryError(ValueError):
    """A malformed timeline request; str(error) is shown to the user."""


@dataclass(frozen=True, slots=True)
class TimelineQuery:
    axis: str = "logical"
    window: tuple[float, float] | None = None
    ranks: frozenset[int] | None = None
    budget: int = DEFAULT_BUDGET
    stragglers: bool = False  # send every straggling point of the window


def parse_timeline_query(params: Mapping[str, str]) -> TimelineQuery:
    """Read `axis`, `x0`/`x1`, `ranks` (e.g. `0-7,12`), `stragglers` and `max_points`."""
    axis = params.get("axis") or "logical"
    if axis not in AXES:
        message = gettext("axis must be one of %(axes)s, not %(axis)r")
        raise TimelineQueryError(message % {"axes": ", ".join(AXES), "axis": axis})
    try:
        ranks = parse_rank_filter(params.get("ranks"))
    except ValueError as error:
        raise TimelineQueryError(str(error)) from error
    window, budget = _parse_window(params), _parse_budget(params)
    return TimelineQuery(axis, window, ranks, budget, _parse_switch(params, "stragglers"))


def _parse_switch(params: Mapping[str, str], name: str) -> bool:
    raw = (params.get(name) or "").strip().lower()
    if raw in SWITCH_ON:
        return True
    if raw in SWITCH_OFF:
        return False
    raise TimelineQueryError(
        gettext("%(name)s must be 1 or 0, not %(raw)r") % {"name": name, "raw": raw}
    )


def _parse_window(params: Mapping[str, str]) -> tuple[float, float] | None:
    x0, x1 = params.get("x0"), params.get("x1")
    if not x0 and not x1:
        return None
    try:
        low, high = float(x0 or ""), float(x1 or "")
    except ValueError:
        raise TimelineQueryError(gettext("x0 and x1 must both be numbers")) from None
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        raise TimelineQueryError(gettext("the window needs finite numbers with x0 < x1"))
    return low, high


def _parse_budget(params: Mapping[str, str]) -> int:
    raw = params.get("max_points")
    if not raw:
        return DEFAULT_BUDGET
    try:
        value = int(raw)
    except ValueError:
        raise TimelineQueryError(gettext("max_points must be a whole number")) from None
    return max(MIN_BUDGET, min(MAX_BUDGET, value))
