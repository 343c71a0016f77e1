"""What the reader skipped in a bundle and what a budget cut are told in the page's language;
a report written before its Chinese existed still shows them, in English."""

from __future__ import annotations

import copy

import pytest

from analyzers.core.bilingual import CJK_CHAR as CJK
from tests.incidents.library_helpers import make_incident, page_in, shape_report

pytestmark = pytest.mark.django_db

SKIPPED = ("skipped '/etc/passwd': absolute path", "已跳过 '/etc/passwd'：使用了绝对路径")
CUT = (
    "read 2,000 of 20,000 files; the rest were counted, not read: file count limit"
    " (RANKLENS_LIMIT_MEMBERS)",
    "共 20,000 个文件，读取了 2,000 个；其余只计数、未读取：文件数限制（RANKLENS_LIMIT_MEMBERS）",
)


def noted_report(*, chinese: bool = True) -> dict:
    """A finished report whose bundle had an unsafe member and more files than were read."""
    report = copy.deepcopy(shape_report())
    report["bundle"]["warnings"] = [SKIPPED[0]]
    report["bundle"]["limits"] = [{"limit": "members", "message": CUT[0]}]
    if chinese:
        report["bundle"]["warnings_zh"] = [SKIPPED[1]]
        report["bundle"]["limits"][0]["message_zh"] = CUT[1]
    return report


def section(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start : html.index("</section>", start)]


def test_skipped_members_and_cuts_read_in_chinese_on_a_chinese_page(alice_client, alice):
    incident = make_incident(noted_report(), alice)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    assert "已跳过 &#x27;/etc/passwd&#x27;：使用了绝对路径" in section(html, "files")
    assert "文件数限制（RANKLENS_LIMIT_MEMBERS）" in section(html, "limits")
    assert "absolute path" not in html
    assert "file count limit" not in html


def test_skipped_members_and_cuts_read_in_english_on_an_english_page(alice_client, alice):
    incident = make_incident(noted_report(), alice)

    html = page_in(alice_client, incident.get_absolute_url(), "en")

    assert "skipped &#x27;/etc/passwd&#x27;: absolute path" in section(html, "files")
    assert "file count limit (RANKLENS_LIMIT_MEMBERS)" in section(html, "limits")
    assert not CJK.search(section(html, "files") + section(html, "limits"))


def test_a_report_without_their_chinese_shows_them_in_english(alice_client, alice):
    incident = make_incident(noted_report(chinese=False), alice)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    assert "skipped &#x27;/etc/passwd&#x27;: absolute path" in section(html, "files")
    assert "file count limit (RANKLENS_LIMIT_MEMBERS)" in section(html, "limits")
