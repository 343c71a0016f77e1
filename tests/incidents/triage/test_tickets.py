"""Ticket URLs and the keys people search them by."""

from __future__ import annotations

import pytest

from incidents.triage.tickets import TicketInvalid, ticket_key, ticket_url_clean


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://jira.example.com/browse/PROJ-123", "PROJ-123"),
        (
            "https://jira.example.com/jira/software/c/projects/AI/boards/7?selectedIssue=AI-42",
            "AI-42",
        ),
        ("https://github.com/acme/trainer/issues/12", "acme/trainer#12"),
        ("https://github.com/acme/trainer/pull/7", "acme/trainer#7"),
        ("https://gitlab.example.com/infra/npu/serving/-/issues/88", "infra/npu/serving#88"),
        ("https://tracker.example.com/view?id=NPU_OPS-9", "NPU_OPS-9"),
        ("https://wiki.example.com/pages/triage-notes", ""),
    ],
)
def test_a_ticket_url_yields_the_key_people_quote(url, key):
    assert ticket_key(url) == key


@pytest.mark.parametrize(
    "value", ["PROJ-123", "ftp://x.example.com/a", "javascript:alert(1)", "https://"]
)
def test_a_ticket_must_be_an_http_url(value):
    with pytest.raises(TicketInvalid):
        ticket_url_clean(value)


def test_a_ticket_url_is_kept_as_pasted_without_surrounding_space():
    assert ticket_url_clean("  https://jira.example.com/browse/PROJ-1 \n") == (
        "https://jira.example.com/browse/PROJ-1"
    )
