"""A report like the analyzer's for the real 4-rank crash bundle, with the facts the meeting
screen shows: confidence, last common checkpoint and each rank's progress."""

from __future__ import annotations

from typing import Any

from tests.incidents.library_helpers import shape_report


def crash_report(**diagnosis: Any) -> dict[str, Any]:
    """The 4-rank shape mismatch: rank 3 failed in layer 2, the others waited in layer 3."""
    report = shape_report(
        cases=[{"id": "aicore-timeout", "title": "AI Core timeout", "score": 0.4}]
    )
    report["diagnosis"] |= {
        "confidence": 0.93,
        "last_common_checkpoint": "attention passed",
        "last_common_checkpoint_qualified": "layer 2 / attention passed",
        **diagnosis,
    }
    report["ranks"] = [
        {
            "rank": rank,
            "status": "error" if rank == 3 else "killed",
            "checkpoints": 11 if rank == 3 else 13,
            "last_checkpoint": "attention passed" if rank == 3 else "layer 2 passed",
            "last_checkpoint_qualified": (
                "layer 2 / attention passed" if rank == 3 else "layer 2 passed"
            ),
            "first_error": None,
        }
        for rank in (2, 0, 3, 1)
    ]
    return report
