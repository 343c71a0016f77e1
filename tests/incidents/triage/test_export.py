"""The ticket export's wording, from plain facts (no database): what a done, queued or
failed incident says, and how log text and typed text are kept from turning into markup."""

from __future__ import annotations

import pytest

from incidents.triage.export import (
    ExportFacts,
    code_span,
    escape,
    export_markdown,
    link_target,
    one_line,
)
from tests.incidents.library_helpers import error_ref, shape_report

URL = "https://ranklens.example.com/incidents/INC-7/"


def line_url(path: str, line: int | None) -> str:
    return f"https://ranklens.example.com/incidents/INC-7/files/{path}?line={line}#L{line}"


def facts(**values) -> ExportFacts:
    base = {
        "short_id": "INC-7",
        "title": "tp8 decode",
        "url": URL,
        "triage_status": "Investigating",
        "analysis_status": "done",
        "diagnosis": shape_report()["diagnosis"] | {"confidence": 0.87},
    }
    return ExportFacts(**(base | values))


def test_a_finished_incident_reads_as_a_short_ticket_note():
    diagnosis = shape_report()["diagnosis"] | {
        "confidence": 0.87,
        "last_common_checkpoint": "norm passed",
        "last_common_checkpoint_qualified": "decode step 137 / layer 41 / norm passed",
    }
    text = export_markdown(
        facts(
            diagnosis=diagnosis,
            owner="bob",
            tickets=[("NPU-77", "https://jira.example.com/browse/NPU-77")],
        ),
        line_url,
    )

    assert text == (
        "### INC-7: tp8 decode\n"
        "\n"
        "- **Triage:** Investigating\n"
        "- **Verdict:** `shape_mismatch` (confidence 0.87)\n"
        "- **First causal error:** [`job-f0dddebb/log_3.log:48`]"
        "(https://ranklens.example.com/incidents/INC-7/files/job-f0dddebb/log_3.log?line=48#L48)"
        " (rank 3)\n"
        "   > `[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)`\n"
        "- **Culprit ranks:** 3\n"
        "- **Last common checkpoint:** `decode step 137 / layer 41 / norm passed`\n"
        "- **Next actions:**\n"
        "   1. Check the TP split of the projection weights.\n"
        "- **Owner:** bob\n"
        "- **Tickets:** [NPU-77](https://jira.example.com/browse/NPU-77)\n"
        f"- **Incident:** {URL}\n"
    )


@pytest.mark.parametrize(
    ("values", "present", "absent"),
    [
        (
            {"analysis_status": "queued", "diagnosis": None},
            ["- **Analysis:** queued, no diagnosis yet"],
            ["Verdict", "First causal error", "Culprit ranks"],
        ),
        (
            {"analysis_status": "running", "diagnosis": None},
            ["- **Analysis:** running, no diagnosis yet"],
            ["Verdict"],
        ),
        (
            {"analysis_status": "", "diagnosis": None},
            ["- **Analysis:** not started, no diagnosis yet"],
            ["Verdict"],
        ),
        (
            {
                "analysis_status": "failed",
                "diagnosis": None,
                "analysis_error": "not a tar or gzip file:\n  bad magic number",
            },
            ["- **Analysis:** failed: `not a tar or gzip file: bad magic number`"],
            ["Verdict"],
        ),
        (
            {"analysis_status": "failed", "diagnosis": None},
            ["- **Analysis:** failed: `no reason was recorded`"],
            [],
        ),
        (
            {"diagnosis": shape_report()["diagnosis"] | {"culprit_ranks": []}},
            ["- **Culprit ranks:** none singled out"],
            ["Last common checkpoint"],
        ),
        (
            {"diagnosis": shape_report()["diagnosis"] | {"first_error": None, "next_actions": []}},
            ["- **First causal error:** no error line found", "- **Verdict:** `shape_mismatch`\n"],
            ["Next actions", "confidence"],
        ),
        (
            {"owner": ""},
            ["- **Owner:** nobody"],
            ["Tickets"],
        ),
        (
            {"root_cause_category": "hccl", "duplicate_of": ("INC-3", "https://r.example/INC-3/")},
            [
                "- **Root cause (set by people):** `hccl`",
                "- **Duplicate of:** [INC-3](https://r.example/INC-3/)",
            ],
            [],
        ),
        (
            {"tickets": [("", "https://tracker.example.com/view?id=12")]},
            [
                "- **Tickets:** [https://tracker.example.com/view?id=12]"
                "(https://tracker.example.com/view?id=12)"
            ],
            [],
        ),
    ],
)
def test_what_each_state_of_an_incident_says(values, present, absent):
    text = export_markdown(facts(**values), line_url)

    for part in present:
        assert part in text
    for part in absent:
        assert part not in text
    assert "<" not in text.replace("<*>", "")  # plain Markdown, never HTML


def test_log_text_stays_literal_and_typed_text_is_escaped():
    diagnosis = shape_report()["diagnosis"] | {
        "first_error": error_ref(
            line=9, text="E   `x` <b>**not bold**</b> [link](http://evil) | col_a |"
        ),
        "next_actions": ["Set HCCL_CONNECT_TIMEOUT=1800 *before* launching"],
    }
    text = export_markdown(
        facts(title="MoE <b>hang</b> on *a2* [nightly]", owner="ops_bot", diagnosis=diagnosis),
        line_url,
    )

    assert "### INC-7: MoE \\<b\\>hang\\</b\\> on \\*a2\\* \\[nightly\\]\n" in text
    assert "   > ``E `x` <b>**not bold**</b> [link](http://evil) | col_a |``\n" in text
    assert "1. Set HCCL\\_CONNECT\\_TIMEOUT=1800 \\*before\\* launching" in text
    assert "- **Owner:** ops\\_bot" in text


def test_a_long_log_line_is_cut_and_the_link_shows_the_rest():
    diagnosis = shape_report()["diagnosis"] | {"first_error": error_ref(text="x" * 1000)}
    text = export_markdown(facts(diagnosis=diagnosis), line_url)

    quoted = next(line for line in text.splitlines() if line.startswith("   > "))
    assert len(quoted) < 320
    assert quoted.endswith("…`")


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("plain", "`plain`"),
        ("a `tick` inside", "``a `tick` inside``"),
        ("``double``", "``` ``double`` ```"),
        ("`edge", "`` `edge ``"),
    ],
)
def test_code_span_fences_past_any_backticks(text, span):
    assert code_span(text) == span


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("tp8 decode", "tp8 decode"),
        ("a_b*c", "a\\_b\\*c"),
        ("[x](y)", "\\[x\\](y)"),
        ("two\nlines", "two lines"),
        ("back\\slash", "back\\\\slash"),
    ],
)
def test_escape(text, escaped):
    assert escape(text) == escaped


def test_one_line_and_link_target():
    assert one_line("  a \n\t b  ") == "a b"
    assert one_line("abcdef", limit=4) == "abc…"
    assert link_target("https://x/a (b)") == "https://x/a%20%28b%29"
