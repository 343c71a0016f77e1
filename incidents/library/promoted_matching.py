"""Matching an analysis against the cases people promoted from earlier incidents.

The analyzer matches the seeded library (it reads the YAML files); promoted cases live only
in the database, so the web app scores them itself when a run finishes, from the report:
a signature found in the first causal error counts most, one found in other evidence
less, a shared error code and the same category add to that. Without a signature or code
hit a case does not match at all. Drafts do not match until they are published.
"""

from __future__ import annotations

from typing import Any

from analyzers.core.saferegex import UnsafeRegex, compile_user_regex
from incidents.library.models import Case, CaseSource

IN_CAUSE = 0.5
ELSEWHERE = 0.25
SHARED_CODE = 0.25
SAME_CATEGORY = 0.2
MIN_SCORE = 0.45


def report_texts(report: dict[str, Any]) -> tuple[str, str]:
    """(cause lines, other evidence lines) of a report."""
    diagnosis = report.get("diagnosis") or {}
    first = (diagnosis.get("first_error") or {}).get("text") or ""
    cause, other = [first], []
    for item in diagnosis.get("evidence") or []:
        text = (item.get("ref") or {}).get("text") or ""
        (cause if item.get("role") == "cause" else other).append(text)
    return "\n".join(cause), "\n".join(other)


def case_score(case: Case, report: dict[str, Any], cause: str, other: str) -> float:
    diagnosis = report.get("diagnosis") or {}
    patterns = _patterns(case.signatures)
    score = 0.0
    if any(p.search(cause) for p in patterns):
        score += IN_CAUSE
    elif any(p.search(other) for p in patterns):
        score += ELSEWHERE
    if set(case.codes) & set(diagnosis.get("error_codes") or []):
        score += SHARED_CODE
    if score and case.category == diagnosis.get("category"):
        score += SAME_CATEGORY
    return round(min(score, 1.0), 3)


def promoted_matches(report: dict[str, Any], exclude: set[int] = frozenset()) -> dict[str, float]:
    """{slug: score} of the promoted cases that match the report well enough."""
    cause, other = report_texts(report)
    found = {}
    promoted = Case.objects.published().filter(source=CaseSource.PROMOTED)
    for case in promoted.exclude(pk__in=exclude):
        score = case_score(case, report, cause, other)
        if score >= MIN_SCORE:
            found[case.slug] = score
    return found


def _patterns(signatures: list[str]) -> list[Any]:
    patterns = []
    for signature in signatures or []:
        try:
            patterns.append(compile_user_regex(signature, ignore_case=True))
        except UnsafeRegex:
            continue  # the edit form refuses these; older rows (backtracking ones too) skipped
    return patterns
