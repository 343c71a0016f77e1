"""The few facts of a report the incident list filters, sorts and shows, copied onto the
incident when its analysis ends (a JSON report cannot be filtered on every database)."""

from __future__ import annotations

from typing import Any

FIRST_ERROR_CHARS = 300
CODES_CHARS = 500
FILE_NAMES_CHARS = 64 * 1024


def report_summary(report: dict[str, Any]) -> dict[str, Any]:
    """Incident field values for a finished report; missing parts read as empty."""
    diagnosis = report.get("diagnosis") or {}
    first = diagnosis.get("first_error") or {}
    return {
        "category": str(diagnosis.get("category") or "")[:20],
        "culprit_ranks": sorted(int(r) for r in diagnosis.get("culprit_ranks") or []),
        "first_error": short_line(str(first.get("text") or "")),
        "codes": codes_text(diagnosis.get("error_codes") or []),
        "file_names": file_names_text(report),
    }


def short_line(text: str, limit: int = FIRST_ERROR_CHARS) -> str:
    """One line, spaces collapsed, cut with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def codes_text(codes: list[Any]) -> str:
    """Codes between spaces (" 507014 EZ9999 "), so a filter matches a whole code."""
    words: list[str] = []
    for code in codes:
        word = str(code.get("code") if isinstance(code, dict) else code).strip()
        if word and word not in words:
            words.append(word)
    text = " " + " ".join(words) + " " if words else ""
    return text if len(text) <= CODES_CHARS else text[: text.rfind(" ", 0, CODES_CHARS) + 1]


def file_names_text(report: dict[str, Any]) -> str:
    """Bundle member paths, one per line, up to a cap: enough for `q` to find a file."""
    lines: list[str] = []
    size = 0
    for entry in (report.get("bundle") or {}).get("files") or []:
        path = str(entry.get("path") or "")
        size += len(path) + 1
        if size > FILE_NAMES_CHARS:
            break
        lines.append(path)
    return "\n".join(lines)
