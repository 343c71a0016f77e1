"""How sure a diagnosis is: a figure in the report's range whatever the penalties add up to."""

from __future__ import annotations

from types import SimpleNamespace

from analyzers.classify.events import TIER_CASCADE
from analyzers.report.confidence import confidence_of


def _line(category: str, weight: int) -> SimpleNamespace:
    return SimpleNamespace(
        category=category, best=SimpleNamespace(weight=weight), codes=(), tier=TIER_CASCADE
    )


def test_a_weak_first_error_contested_by_another_label_is_not_below_zero() -> None:
    # a launcher's summary (weight 12, trusted 0.4) beside a line of another label at its tier
    first = _line("other", 12)
    chain = SimpleNamespace(first=first, supporting=[], top=[first, _line("device_fault", 20)])
    assert confidence_of(chain, "other", None) == 0.0


def test_an_uncontested_first_error_keeps_its_weighted_figure() -> None:
    first = _line("device_fault", 20)
    chain = SimpleNamespace(first=first, supporting=[], top=[first])
    assert confidence_of(chain, "device_fault", None) == 0.08
