"""The earliest warning of the rule that reads the first error leads it
(docs/labelling.md#a-failure-warned-about-before-it-was-raised)."""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

WARNED_TWICE_THEN_RAISED = """\
2025-04-10 08:00:01,100 WARNING [train.py:900] (0/2) Grad scale is small: 0.0009765625
2025-04-10 08:00:05,100 WARNING [train.py:900] (1/2) Grad scale is small: 0.00048828125
RuntimeError: grad_scale is too small, exiting: 1.52587890625e-05
"""

OTHER_FAILURE_IN_BETWEEN = """\
2025-04-10 08:00:01,100 WARNING [train.py:900] (0/2) Grad scale is small: 0.0009765625
RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 39.39 GiB total capacity)
RuntimeError: grad_scale is too small, exiting: 1.52587890625e-05
"""


def test_the_first_of_several_warnings_leads() -> None:
    diagnosis = diagnose_text("train.log", WARNED_TWICE_THEN_RAISED)
    assert diagnosis.first_error is not None
    assert "0.0009765625" in diagnosis.first_error.text


def test_a_failure_of_another_rule_in_between_keeps_its_place() -> None:
    diagnosis = diagnose_text("train.log", OTHER_FAILURE_IN_BETWEEN)
    assert diagnosis.first_error is not None
    assert "Grad scale is small" not in diagnosis.first_error.text
