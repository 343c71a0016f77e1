"""The incident page's triage panel, comment thread and activity stream: a form post comes
back to the page showing what was saved, Markdown rendered and sanitised."""

from __future__ import annotations

import re

import pytest

from incidents.models import Comment, Incident
from incidents.triage.services import triage_update
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = pytest.mark.django_db

ROOT_CAUSE = (
    "Rank 3 loaded the **unsplit** `o_proj` weight.\n\n"
    "<script>alert('x')</script>\n\n"
    "[details](javascript:alert(1)) and [the PR](https://git.example.com/llm/pull/12)"
)


@pytest.fixture
def incident(alice, bob) -> Incident:
    return make_incident(shape_report(), user=alice, title="tp8 decode")


def page_of(client, incident: Incident) -> str:
    return client.get(incident.get_absolute_url()).content.decode()


def section(html: str, element_id: str) -> str:
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</section>", start)]


def test_the_panel_offers_every_field_with_its_choices(alice_client, incident):
    html = section(page_of(alice_client, incident), "triage")

    assert f'action="/incidents/INC-{incident.pk}/triage/"' in html
    assert f'name="next" value="/incidents/INC-{incident.pk}/#triage"' in html
    assert '<option value="investigating">Investigating</option>' in html
    assert '<option value="">nobody</option>' in html
    assert '<option value="bob">bob</option>' in html
    assert '<option value="hccl">hccl</option>' in html  # taxonomy labels
    assert "The analyzer said shape_mismatch." in html
    for name in ("tags", "tickets", "root_cause", "decision", "duplicate_of"):
        assert f'name="{name}"' in html


def test_an_unsettled_root_cause_says_so_before_what_the_analyzer_said(alice_client, incident):
    html = section(page_of(alice_client, incident), "triage")

    cell = html[html.index('id="triage-root-cause"') :]
    cell = cell[cell.index(">") + 1 : cell.index("</dd>")]
    assert " ".join(re.sub(r"<[^>]+>", " ", cell).split()) == (
        "not set · the analyzer said shape_mismatch"
    )


def test_a_panel_post_round_trips_to_the_page(alice_client, incident):
    form = {
        "triage_status": "root_caused",
        "owner": "bob",
        "tags": "moe, A2 cluster",
        "tickets": "https://jira.example.com/browse/NPU-77\nhttps://github.com/acme/llm/issues/12",
        "root_cause": ROOT_CAUSE,
        "root_cause_category": "weight_load",
        "decision": "Re-run with the *fixed* loader.",
        "duplicate_of": "",
        "next": f"/incidents/INC-{incident.pk}/#triage",
    }
    answer = alice_client.post(f"/incidents/INC-{incident.pk}/triage/", form)
    assert answer.status_code == 302
    assert answer["Location"] == f"/incidents/INC-{incident.pk}/#triage"

    html = section(page_of(alice_client, incident), "triage")
    assert '<span class="badge triage-root_caused" id="triage-status">Root caused</span>' in html
    assert '<dd id="triage-owner">bob</dd>' in html
    assert '<a class="tag" href="/incidents/?tag=moe">moe</a>' in html
    assert '<a class="tag" href="/incidents/?tag=a2-cluster">a2-cluster</a>' in html
    assert ">NPU-77</a>" in html
    assert ">acme/llm#12</a>" in html
    assert 'href="https://jira.example.com/browse/NPU-77"' in html
    # Markdown rendered, sanitised
    assert "<strong>unsplit</strong>" in html
    assert "<code>o_proj</code>" in html
    assert "<script>" not in html
    assert 'href="javascript:' not in html  # left as text, never a link
    assert 'href="https://git.example.com/llm/pull/12" rel="noopener noreferrer nofollow"' in html
    assert "<em>fixed</em>" in html
    assert '<span class="badge">weight_load</span>' in html
    assert "the analyzer said shape_mismatch" in html
    # and the form holds the saved values for the next edit
    assert '<option value="bob" selected>bob</option>' in html
    assert 'name="tags" id="id_tags" value="a2-cluster, moe"' in html
    assert "https://jira.example.com/browse/NPU-77\nhttps://github.com/acme/llm/issues/12" in html


def test_a_refused_post_says_which_field_and_keeps_the_incident(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "duplicate", "duplicate_of": "", "next": incident.get_absolute_url()},
        follow=True,
    )

    html = answer.content.decode()
    assert "Duplicate of: a duplicate names the incident it duplicates" in html
    incident.refresh_from_db()
    assert incident.triage_status == "new"


def test_a_duplicate_links_to_its_original_and_the_original_lists_it(alice_client, alice, incident):
    copy = make_incident(None, user=alice, title="same crash again")
    alice_client.post(
        f"/incidents/INC-{copy.pk}/triage/",
        {"triage_status": "duplicate", "duplicate_of": f"INC-{incident.pk}"},
    )

    copy_html = page_of(alice_client, copy)
    banner = copy_html[copy_html.index('id="duplicate-banner"') :].split("</p>", 1)[0]
    assert f'<a href="/incidents/INC-{incident.pk}/">INC-{incident.pk}</a> tp8 decode' in banner
    assert f'value="INC-{incident.pk}"' in section(copy_html, "triage")

    original = section(page_of(alice_client, incident), "triage")
    assert "Duplicates" in original
    assert f'<a href="/incidents/INC-{copy.pk}/">INC-{copy.pk}</a> same crash again' in original
    assert 'id="duplicate-banner"' not in page_of(alice_client, incident)


def test_comments_show_rendered_with_author_time_and_permalink(alice_client, incident):
    alice_client.post(
        f"/incidents/INC-{incident.pk}/comments/",
        {"body": "Rank 3 is **fine** <img src=x onerror=alert(1)>", "next": "/"},
    )
    comment = Comment.objects.get(incident=incident)

    html = section(page_of(alice_client, incident), "comments")
    assert f'<article class="comment" id="comment-{comment.pk}">' in html
    assert f'href="#comment-{comment.pk}"' in html
    assert "<strong>alice</strong>" in html
    assert "<strong>fine</strong>" in html
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # shown as text
    assert f'action="/incidents/INC-{incident.pk}/comments/"' in html


def test_the_activity_stream_reads_every_triage_change(alice_client, alice, incident):
    original = make_incident(None, user=alice, title="first report")
    triage_update(
        incident=incident,
        actor=alice,
        changes={
            "triage_status": "investigating",
            "owner": "bob",
            "tags": "moe",
            "tickets": "https://jira.example.com/browse/NPU-77",
            "root_cause": "weights **unsplit**",
            "root_cause_category": "weight_load",
            "decision": "rerun",
        },
    )
    triage_update(
        incident=incident,
        actor=alice,
        changes={"triage_status": "duplicate", "duplicate_of": original.short_id, "owner": ""},
    )
    alice_client.post(f"/incidents/INC-{incident.pk}/comments/", {"body": "see the *original*"})

    html = section(page_of(alice_client, incident), "activity")
    rows = re.findall(r'<tr class="activity-entry".*?</tr>', html, flags=re.S)
    text = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]

    assert any("changed triage status Investigating Duplicate" in t for t in text)
    assert any("set triage status" not in t and "New Investigating" in t for t in text)
    assert any("set owner — bob" in t for t in text)
    assert any("cleared owner bob —" in t for t in text)
    assert any("set tags — moe" in t for t in text)
    assert any("set tickets — NPU-77" in t for t in text)
    assert any("set root cause — weights **unsplit**" in t for t in text)
    assert any("set root-cause category — weight_load" in t for t in text)
    assert any("set decision — rerun" in t for t in text)
    assert any(f"set duplicate of — INC-{original.pk}" in t for t in text)
    assert any("commented — see the *original*" in t for t in text)
    assert f'<a class="mono" href="/incidents/INC-{original.pk}/">INC-{original.pk}</a>' in html
    assert '<a class="tag" href="/incidents/?tag=moe">moe</a>' in html


def test_the_copy_button_carries_the_export_text(alice_client, incident):
    html = section(page_of(alice_client, incident), "triage")
    exported = alice_client.get(f"/incidents/INC-{incident.pk}/export.md").content.decode()

    assert '<button type="button" id="copy-export"' in html
    textarea = re.search(r'<textarea id="export-text"[^>]*hidden[^>]*>(.*?)</textarea>', html, re.S)
    assert textarea is not None
    assert textarea.group(1).replace("&gt;", ">").replace("&#x27;", "'") == exported


def test_a_refusal_speaks_the_pages_language(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"owner": "nobody-here", "next": incident.get_absolute_url()},
        headers={"Accept-Language": "zh-CN"},
        follow=True,
    )

    assert "负责人：没有名为 &#x27;nobody-here&#x27; 的在用用户" in answer.content.decode()
