"""A plain-text summary of a report, for terminals and CI logs."""

from __future__ import annotations

from analyzers.core.report import Report
from analyzers.core.types import ErrorRef


def format_summary(report: Report) -> str:
    d = report.diagnosis
    lines = [
        f"bundle      {report.bundle.name} ({len(report.bundle.files)} files, "
        f"world size {report.world_size if report.world_size is not None else '?'})",
        f"category    {d.category} ({d.subsystem}), confidence {d.confidence:.2f}",
        f"first error {_where(d.first_error)}",
    ]
    if d.first_error:
        lines.append(f"            {d.first_error.text.strip()[:300]}")
    if d.culprit_ranks:
        lines.append(f"culprits    ranks {', '.join(map(str, d.culprit_ranks))}")
    if d.culprit_reason and d.culprit_reason != d.root_cause:
        lines.append(f"            {d.culprit_reason}")
    if d.root_cause:
        lines.append(f"root cause  {d.root_cause}")
    if d.error_codes:
        lines.append(f"codes       {', '.join(d.error_codes)}")
    lines.append(f"last common checkpoint: {d.last_common_checkpoint or '-'}")
    lines.extend(_rank_table(report))
    if d.next_actions:
        lines.append("next actions:")
        lines.extend(f"  - {action}" for action in d.next_actions)
    if report.cases:
        lines.append("similar known cases:")
        lines.extend(f"  - {c.id}: {c.title} ({c.score:.2f})" for c in report.cases[:3])
    lines.extend(f"warning: {w}" for w in report.bundle.warnings)
    return "\n".join(lines) + "\n"


def _where(ref: ErrorRef | None) -> str:
    if ref is None:
        return "-"
    rank = f" (rank {ref.rank})" if ref.rank is not None else ""
    return f"{ref.file}:{ref.line}{rank}"


def _rank_table(report: Report) -> list[str]:
    if not report.ranks:
        return []
    rows = ["rank  status   last checkpoint            first error"]
    for r in report.ranks:
        rows.append(
            f"{r.rank:<5} {r.status!s:<8} {(r.last_checkpoint or '-')[:26]:<26} "
            f"{_where(r.first_error)}"
        )
    return rows
