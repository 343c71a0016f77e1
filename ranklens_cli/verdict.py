"""What a CI log should show of a finished analysis: a few lines a person can act on."""

from __future__ import annotations

from typing import Any


def verdict_lines(status: dict[str, Any]) -> list[str]:
    """The verdict of a finished run (done or failed), one fact per line."""
    incident = status.get("id", "incident")
    if status.get("status") != "done":
        reason = status.get("error") or "no reason given"
        return [f"{incident}: analysis failed: {reason}", str(status.get("url", ""))]
    diagnosis = (status.get("report") or {}).get("diagnosis") or {}
    lines = [f"{incident}: {category_text(diagnosis)}"]
    ranks = diagnosis.get("culprit_ranks") or []
    lines.append("culprit ranks: " + (", ".join(str(r) for r in ranks) or "none identified"))
    lines.append("first error: " + first_error_text(diagnosis.get("first_error")))
    lines.append(str(status.get("url", "")))
    return lines


def category_text(diagnosis: dict[str, Any]) -> str:
    category = diagnosis.get("category") or "unknown"
    confidence = diagnosis.get("confidence")
    if isinstance(confidence, int | float):
        return f"{category} (confidence {confidence:.2f})"
    return category


def first_error_text(first_error: dict[str, Any] | None) -> str:
    """`rank 3, rank3.log:120: RuntimeError: ...`, or `none` for a run without an error."""
    if not first_error:
        return "none"
    where = f"{first_error.get('file', '?')}:{first_error.get('line', '?')}"
    if first_error.get("rank") is not None:
        where = f"rank {first_error['rank']}, {where}"
    return f"{where}: {str(first_error.get('text', '')).strip()}"
