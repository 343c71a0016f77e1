"""A rank's status reads in the page's language.

The report keeps each rank's status as an English key (`ok`, `error`, `hung`, `missing`,
`killed`: `analyzers/schema/report.schema.json`); the rank table and the meeting screen show
the words for it, so a Chinese page does not show the keys.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation

import analyzers
from incidents.evidence.rank_status import STATUS_WORDS, status_words
from tests.incidents.library_helpers import make_incident, page_in
from tests.incidents.meeting.reports import crash_report

SCHEMA = Path(analyzers.__file__).parent / "schema" / "report.schema.json"


@pytest.mark.parametrize(
    ("status", "chinese"),
    [
        ("ok", "正常"),
        ("error", "报错"),
        ("hung", "挂起"),
        ("missing", "缺失"),
        ("killed", "被杀死"),
    ],
)
def test_each_status_reads_in_the_page_language(status, chinese):
    with translation.override("en"):
        assert status_words(status) == status
    with translation.override("zh-hans"):
        assert status_words(status) == chinese


def test_a_status_it_has_no_words_for_shows_as_stored():
    with translation.override("zh-hans"):
        assert status_words("stalled") == "stalled"


def test_every_status_the_report_schema_allows_has_its_words():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    rank = schema["properties"]["ranks"]["items"]["properties"]
    assert set(rank["status"]["enum"]) == set(STATUS_WORDS)


@pytest.mark.django_db
def test_the_rank_table_of_a_chinese_page_shows_the_words(alice_client, alice):
    incident = make_incident(crash_report(), alice)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    table = html[html.index('id="ranks"') :]
    table = table[: table.index("</section>")]
    assert '<span class="badge badge-rank-error">报错</span>' in table
    assert table.count('<span class="badge badge-rank-killed">被杀死</span>') == 3


@pytest.mark.django_db
def test_the_meeting_screen_of_a_chinese_page_shows_the_words(alice_client, alice):
    incident = make_incident(crash_report(), alice, title="tp8 decode")

    html = page_in(alice_client, f"/meeting/?at=INC-{incident.pk}", "zh-hans")

    assert "<td>报错</td>" in html
    assert "<td>killed</td>" not in html
    assert "<td>被杀死</td>" in html
