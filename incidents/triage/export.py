"""An incident as a few lines of Markdown to paste into a Jira, GitHub or GitLab ticket.

Plain data in, text out (no database, no request), so the wording is tested as a table.
Log text goes into code spans, where no tracker reads `*`, `_` or `<` as markup; text
people typed (the title, a user name) has its Markdown characters escaped instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from incidents.localized import next_action

LOG_LINE_CHARS = 300  # a quoted log line is cut here: the permalink shows the rest
ACTIONS_SHOWN = 5
# Escaped text never starts a line here, so only the characters that are markup inside a
# line need it (a leading '#', '-' or '1.' cannot start a heading or a list).
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>|~])")

# (file, line) -> absolute URL of that line in the log viewer, or "" when it has none.
LineUrl = Callable[[str, int | None], str]


@dataclass(frozen=True)
class ExportFacts:
    """What the export says about an incident, gathered by the caller."""

    short_id: str
    title: str
    url: str  # absolute URL of the incident page
    triage_status: str  # the state's label, as the page shows it
    analysis_status: str  # queued, running, done or failed
    owner: str = ""
    tickets: Sequence[tuple[str, str]] = ()  # (key or "", url)
    analysis_error: str = ""
    diagnosis: Mapping[str, Any] | None = None
    root_cause_category: str = ""  # what people settled on, "" when not set
    duplicate_of: tuple[str, str] | None = None  # (short id, absolute URL)


def export_markdown(facts: ExportFacts, line_url: LineUrl) -> str:
    """The whole export: a heading, then one bullet per fact that is known."""
    lines = [f"### {facts.short_id}: {escape(facts.title)}", ""]
    lines.append(_bullet(_("Triage"), escape(facts.triage_status)))
    if facts.duplicate_of:
        short_id, url = facts.duplicate_of
        lines.append(_bullet(_("Duplicate of"), f"[{short_id}]({link_target(url)})"))
    lines += _analysis_lines(facts, line_url)
    if facts.root_cause_category:
        lines.append(_bullet(_("Root cause (set by people)"), code_span(facts.root_cause_category)))
    lines.append(_bullet(_("Owner"), escape(facts.owner) if facts.owner else _("nobody")))
    if facts.tickets:
        links = ", ".join(
            f"[{escape(key or url)}]({link_target(url)})" for key, url in facts.tickets
        )
        lines.append(_bullet(_("Tickets"), links))
    lines.append(_bullet(_("Incident"), facts.url))
    return "\n".join(lines) + "\n"


def _analysis_lines(facts: ExportFacts, line_url: LineUrl) -> list[str]:
    """The analyzer's findings, or why there are none yet."""
    if facts.analysis_status == "failed":
        reason = one_line(facts.analysis_error) or _("no reason was recorded")
        return [_bullet(_("Analysis"), _("failed: %(reason)s") % {"reason": code_span(reason)})]
    if facts.analysis_status != "done" or not facts.diagnosis:
        state = escape(facts.analysis_status or _("not started"))
        return [_bullet(_("Analysis"), _("%(state)s, no diagnosis yet") % {"state": state})]
    diagnosis = facts.diagnosis
    lines = [_bullet(_("Verdict"), _verdict(diagnosis))]
    lines += _first_error_lines(diagnosis.get("first_error"), line_url)
    ranks = ", ".join(str(r) for r in diagnosis.get("culprit_ranks") or []) or _("none singled out")
    lines.append(_bullet(_("Culprit ranks"), ranks))
    checkpoint = diagnosis.get("last_common_checkpoint_qualified") or diagnosis.get(
        "last_common_checkpoint"
    )
    if checkpoint:
        lines.append(_bullet(_("Last common checkpoint"), code_span(one_line(str(checkpoint)))))
    actions = [one_line(next_action(str(a))) for a in diagnosis.get("next_actions") or []]
    actions = actions[:ACTIONS_SHOWN]
    if actions:
        lines.append(_bullet(_("Next actions"), ""))
        lines += [f"   {n}. {escape(action)}" for n, action in enumerate(actions, 1)]
    return lines


def _verdict(diagnosis: Mapping[str, Any]) -> str:
    text = code_span(str(diagnosis.get("category") or "other"))
    confidence = diagnosis.get("confidence")
    if isinstance(confidence, int | float):
        text += " " + _("(confidence %(value).2f)") % {"value": confidence}
    return text


def _first_error_lines(ref: Any, line_url: LineUrl) -> list[str]:
    if not isinstance(ref, Mapping) or not ref.get("text"):
        return [_bullet(_("First causal error"), _("no error line found"))]
    where = code_span(one_line(f"{ref.get('file') or '?'}:{ref.get('line') or '?'}"))
    url = line_url(str(ref.get("file") or ""), ref.get("line")) if ref.get("file") else ""
    place = f"[{where}]({link_target(url)})" if url else where
    if ref.get("rank") is not None:
        place += " " + _("(rank %(rank)s)") % {"rank": ref["rank"]}
    quoted = code_span(one_line(str(ref["text"]), LOG_LINE_CHARS))
    return [_bullet(_("First causal error"), place), f"   > {quoted}"]


def _bullet(label: str, value: str) -> str:
    return f"- **{label}:** {value}".rstrip()


# ------------------------------------------------------------------ text helpers


def escape(text: str) -> str:
    """Text people typed, with every character Markdown could read as markup escaped."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", one_line(text))


def one_line(text: str, limit: int = 0) -> str:
    """Spaces and line breaks collapsed; cut with an ellipsis past `limit` (0: no cut)."""
    text = " ".join(str(text).split())
    return text if not limit or len(text) <= limit else text[: limit - 1] + "…"


def link_target(url: str) -> str:
    """A URL safe between the parentheses of a Markdown link (a ')' would end it)."""
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def code_span(text: str) -> str:
    """`text` as inline code: fenced by more backticks than the longest run inside it,
    padded with a space when it starts or ends with a backtick (CommonMark's rule)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
