"""Case library pages: search, case permalink, editing, login."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from analyzers.library.matching import load_cases
from incidents.library.models import Case, CaseIncident, CaseSource
from incidents.library.services import cases_load_knowledge
from incidents.models import Activity
from tests.incidents.library_helpers import (
    make_case,
    make_incident,
    make_library,
    page_in,
    promote_form,
    shape_report,
)
from tests.incidents.verdict_helpers import analyzed, at, settle

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/library/",
        "/library/tree/",
        "/library/drafts/",
        "/library/aicore-timeout/",
        "/library/x/edit/",
    ],
)
def test_library_pages_need_login(client, url):
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_search_page_lists_ranked_results(alice_client):
    make_library()

    response = alice_client.get("/library/", {"q": "507014"})

    hits = response.context["result"].hits
    assert response.status_code == 200
    assert hits[0].case.slug == "aicore-timeout"
    assert 'href="/library/aicore-timeout/"' in response.content.decode()


def test_search_page_marks_matched_words(alice_client):
    make_library()

    html = alice_client.get("/library/", {"q": "fragmentation"}).content.decode()

    assert "<mark>fragmentation</mark>" in html


def test_search_page_marks_no_word_the_search_left_out(alice_client):
    """A pasted line's `to` and `in` count for nothing in the ranking (stop words), so
    marking them would show a match that is not one."""
    make_case(
        slug="branch-divergence",
        title="Ranks take different branches and skip a collective (deadlock)",
        category="hccl",
        root_cause="every rank hangs in a collective until a timeout",
        fix="broadcast the branch decision",
    )

    html = alice_client.get(
        "/library/", {"q": "Rank 2 failed to pass monitoredBarrier in 5000 ms"}
    ).content.decode()

    assert "every <mark>rank</mark> hangs in a collective until a timeout" in html
    assert "<mark>in</mark>" not in html


def test_search_page_escapes_case_text_before_marking(alice_client):
    make_case(
        slug="script-title",
        title="<script>alert(1)</script> timeout in dispatch",
        category="other",
        root_cause="<b>bold</b> timeout",
        fix="none",
    )

    html = alice_client.get("/library/", {"q": "timeout"}).content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; <mark>timeout</mark>" in html
    assert "&lt;b&gt;bold&lt;/b&gt; <mark>timeout</mark>" in html


def test_search_page_says_which_word_it_corrected(alice_client):
    make_library()

    html = alice_client.get("/library/", {"q": "fragmentaton"}).content.decode()

    assert "Showing results for" in html
    assert "<strong>fragmentation</strong>" in html


def test_search_page_filters_by_category(alice_client):
    make_library()

    response = alice_client.get("/library/", {"category": "oom"})

    found = {hit.case.slug for hit in response.context["result"].hits}
    assert found == {"oom-fragmentation", "hbm-exhausted-zh"}


def test_case_permalink_shows_the_case_and_its_incidents(alice_client, alice):
    case = make_library()["aicore-timeout"]
    incident = make_incident(shape_report(), alice, title="night run")
    CaseIncident.objects.create(case=case, incident=incident, score=0.75)

    response = alice_client.get("/library/aicore-timeout/")

    html = response.content.decode()
    assert response.status_code == 200
    assert case.get_absolute_url() == "/library/aicore-timeout/"
    assert "AI Core execution timed out on one rank" in html
    assert f'href="/incidents/INC-{incident.pk}/"' in html
    assert "75%" in html


def test_unknown_case_is_404(alice_client):
    assert alice_client.get("/library/no-such-case/").status_code == 404


def test_case_page_links_the_tree_nodes_that_point_at_it(alice_client):
    make_case(
        slug="hccl-buffsize-too-small",
        title="HCCL buffer",
        category="hccl",
        root_cause="small",
        fix="raise",
    )

    html = alice_client.get("/library/hccl-buffsize-too-small/").content.decode()

    assert 'href="/library/tree/#node-hccl_buffsize"' in html


def test_promoted_case_edit_form_saves_and_reindexes(alice_client):
    case = make_case(
        slug="inc-1-x", title="Old title", category="other", root_cause="r", fix="f",
        source=CaseSource.PROMOTED,
    )  # fmt: skip
    form = {
        "title": "Projection weight split twice",
        "category": "shape_mismatch",
        "symptoms": "mat1 and mat2 shapes cannot be multiplied\n",
        "signatures": r"mat1 and mat2 shapes cannot be multiplied \(\d+x\d+",
        "codes": "",
        "operators": "npu_linear, npu_matmul",
        "hardware": ["A2"],
        "root_cause": "The weight was split by TP twice.",
        "fix": "Split once.",
        "verify": "",
        "references": "",
        "tags": "tp",
    }

    response = alice_client.post(f"/library/{case.slug}/edit/", form)

    case.refresh_from_db()
    assert response.status_code == 302
    assert case.title == "Projection weight split twice"
    assert case.operators == ["npu_linear", "npu_matmul"]
    assert alice_client.get("/library/", {"q": "twice"}).context["result"].hits[0].case == case


def test_edit_form_rejects_a_bad_signature_regex(alice_client):
    case = make_case(
        slug="inc-2-x", title="t", category="other", root_cause="r", fix="f",
        source=CaseSource.PROMOTED,
    )  # fmt: skip

    response = alice_client.post(
        f"/library/{case.slug}/edit/",
        {"title": "t", "category": "other", "root_cause": "r", "fix": "f", "signatures": "("},
    )

    assert response.status_code == 200
    assert "not a valid regex" in response.content.decode()


def test_seeded_cases_are_not_edited_on_the_web(alice_client):
    case = make_library()["aicore-timeout"]

    response = alice_client.post(f"/library/{case.slug}/edit/", {"title": "changed"})

    case.refresh_from_db()
    assert response.status_code == 302
    assert case.title == "AI Core execution timed out on one rank"


def test_admin_lists_cases_and_tree_marks(admin_client):
    make_library()

    cases = admin_client.get("/admin/incidents/case/")
    marks = admin_client.get("/admin/incidents/treemark/")

    assert cases.status_code == marks.status_code == 200
    assert "aicore-timeout" in cases.content.decode()


def test_search_page_links_the_next_page_keeping_the_query(alice_client):
    for n in range(21):
        make_case(slug=f"t-{n}", title=f"timeout {n}", category="hccl", root_cause="r", fix="f")

    html = alice_client.get("/library/", {"q": "timeout", "category": "hccl"}).content.decode()

    assert 'href="?q=timeout&amp;category=hccl&amp;page=2"' in html


# ------------------------------------------------------------------ analyzer accuracy


@pytest.fixture
def settled(alice):
    """Three settled incidents: one agreement, one disagreement, one corrected to agree."""
    made = {
        "agrees": analyzed("oom", 0.9, "prefill out of memory"),
        "differs": analyzed("hang", 0.55, "allreduce <b>timeout</b>"),
        "corrected": analyzed("shape_mismatch", 0.95, "tp8 decode"),
    }
    settle(made["agrees"], alice, "oom", at(2, 10))
    settle(made["differs"], alice, "hccl", at(3, 4))
    settle(made["corrected"], alice, "weight_load", at(3, 5))
    settle(made["corrected"], alice, "shape_mismatch", at(3, 6))
    return made


def test_accuracy_page_needs_login(client):
    response = client.get("/library/accuracy/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_accuracy_page_shows_figures_and_links_the_disagreements(alice_client, settled):
    response = alice_client.get(reverse("library:accuracy"))
    html = response.content.decode()

    assert response.status_code == 200
    assert response.context["summary"].overall.total == 3
    assert response.context["summary"].overall.agreed == 2
    assert "only the correction counts" in html
    differs = settled["differs"]
    assert f'<a href="/incidents/INC-{differs.pk}/">INC-{differs.pk}</a>' in html
    assert "allreduce &lt;b&gt;timeout&lt;/b&gt;" in html
    assert f"/incidents/INC-{settled['corrected'].pk}/" not in html
    assert 'href="?category=hccl&amp;analyzer=hang#disagreements"' in html
    assert "<svg" in html
    assert "2026-03: 1 of 2 agreed (50%)" in html


def test_accuracy_page_switches_to_weeks(alice_client, settled):
    response = alice_client.get("/library/accuracy/", {"period": "week"})

    rows = response.context["over_time"].rows
    assert response.status_code == 200
    assert (rows[0].label, rows[-1].label) == ("2026-W07", "2026-W10")
    assert "2026-W10" in response.content.decode()


def test_accuracy_page_filters_disagreements_as_a_permalink(alice_client, settled):
    kept = alice_client.get("/library/accuracy/", {"category": "hccl", "analyzer": "hang"})
    none = alice_client.get("/library/accuracy/", {"category": "oom"})

    assert [d.incident_title for d in kept.context["disagreements"].items] == [
        "allreduce <b>timeout</b>"
    ]
    assert none.context["disagreements"].items == []
    assert "No disagreement matches these filters." in none.content.decode()


def test_accuracy_page_refuses_an_unknown_category_naming_it(alice_client, settled):
    response = alice_client.get("/library/accuracy/", {"analyzer": "gremlins"})

    assert response.status_code == 400
    assert "analyzer: &#x27;gremlins&#x27; is not one of" in response.content.decode()


def test_accuracy_page_without_verdicts_explains_where_they_come_from(alice_client):
    html = alice_client.get("/library/accuracy/").content.decode()

    assert "No verdicts yet" in html
    assert "sets the root-cause category of an incident" in html
    assert "<svg" not in html


def test_accuracy_page_has_no_inline_script_or_style(alice_client, settled):
    html = alice_client.get("/library/accuracy/").content.decode()

    # The only scripts are the base page's files (its language switch and text catalog).
    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts == [' src="/jsi18n/" defer', ' src="/static/js/language_switch.js" defer']
    assert "style=" not in html


def test_search_page_links_the_accuracy_page(alice_client):
    html = alice_client.get("/library/").content.decode()

    assert f'href="{reverse("library:accuracy")}"' in html


def test_accuracy_page_says_when_older_periods_are_left_out(alice_client, alice):
    settle(analyzed("oom", 0.9, "old"), alice, "oom", at(1, 5).replace(year=2023))
    settle(analyzed("oom", 0.9, "new"), alice, "oom", at(3, 1))

    html = alice_client.get("/library/accuracy/").content.decode()

    assert "Only the newest 24 periods are shown." in html


def test_a_category_set_in_the_triage_panel_shows_on_the_accuracy_page(alice_client):
    incident = analyzed("hang", 0.6, "decode stalls after layer 3")
    alice_client.post(f"/incidents/INC-{incident.pk}/triage/", {"root_cause_category": "hccl"})
    alice_client.post(f"/incidents/INC-{incident.pk}/triage/", {"root_cause_category": "config"})

    response = alice_client.get("/library/accuracy/", {"category": "config"})

    summary = response.context["summary"]
    assert (summary.overall.total, summary.verdicts_all) == (1, 2)
    assert [row.category for row in summary.by_person] == ["config"]
    assert f'href="/incidents/INC-{incident.pk}/"' in response.content.decode()


def test_seeded_case_page_reads_in_the_page_language(alice_client):
    cases_load_knowledge()
    case = next(c for c in load_cases() if c.id == "hccl-buffsize-too-small")
    url = "/library/hccl-buffsize-too-small/"

    chinese = page_in(alice_client, url, "zh-hans")
    english = page_in(alice_client, url, "en")

    for text in (
        case.title_zh,
        case.root_cause_zh,
        case.fix_zh,
        *case.symptoms_zh,
        *case.verify_zh,
    ):
        assert escape(text) in chinese
    assert "集合通信失败" in chinese  # the category's name
    assert f"<h1>{escape(case.title)}</h1>" in english
    assert escape(case.root_cause) in english
    assert escape(case.root_cause_zh) not in english


def test_promoted_case_page_keeps_its_own_words_in_chinese(alice_client):
    make_case(slug="nightly-rank-3", title="Nightly job lost rank 3", root_cause="r", fix="f")

    html = page_in(alice_client, "/library/nightly-rank-3/", "zh-hans")

    assert "<h1>Nightly job lost rank 3</h1>" in html


def test_search_finds_a_seeded_case_by_its_chinese_title(alice_client):
    cases_load_knowledge()

    html = page_in(alice_client, "/library/", "zh-hans", q="变慢但不报错")

    first = html.index('class="case-title"')
    assert 'href="/library/numa-binding/"' in html[first : first + 200]
    assert "NUMA 节点上" in html[first : first + 400]


# ------------------------------------------------------- promotion to a draft, publishing


def promote_url(incident) -> str:
    return f"/incidents/INC-{incident.pk}/promote/"


def test_promote_page_shows_the_prefilled_form_and_stores_nothing(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    response = alice_client.get(promote_url(incident))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Matrix shapes cannot be multiplied"' in html
    assert response.context["form"]["category"].initial == "shape_mismatch"
    assert (
        "mat1 and mat2 shapes cannot be multiplied"
        in promote_form(alice_client, incident)["symptoms"]
    )
    assert not Case.objects.exists()
    assert not Activity.objects.exists()


def test_saving_the_promote_form_creates_a_draft_linked_to_the_incident(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    data = promote_form(alice_client, incident)
    data["title"] = "Projection weight split twice by TP"

    response = alice_client.post(promote_url(incident), data)

    case = Case.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/library/{case.slug}/"
    assert (case.title, case.source, case.is_draft) == (data["title"], "promoted", True)
    assert case.created_by == alice
    assert case.slug.startswith(f"inc-{incident.pk}-projection-weight")
    assert CaseIncident.objects.get(case=case).incident == incident
    entry = Activity.objects.get()
    assert (entry.verb, entry.incident, entry.case) == ("promoted", incident, case)


def test_an_invalid_promote_form_stores_nothing_and_says_why(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    data = promote_form(alice_client, incident) | {"signatures": "(", "title": ""}

    response = alice_client.post(promote_url(incident), data)

    html = response.content.decode()
    assert response.status_code == 200
    assert "not a valid regex" in html
    assert "This field is required." in html
    assert not Case.objects.exists()


def test_promoting_again_opens_the_draft_instead_of_a_second_case(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    data = promote_form(alice_client, incident)
    first = alice_client.post(promote_url(incident), data)

    again = alice_client.get(promote_url(incident))
    posted_again = alice_client.post(promote_url(incident), data)

    assert again["Location"] == posted_again["Location"] == first["Location"]
    assert Case.objects.count() == 1


def test_promote_refuses_an_incident_without_a_root_cause(alice_client, alice):
    incident = make_incident(None, alice)

    response = alice_client.get(promote_url(incident), follow=True)

    assert Case.objects.count() == 0
    assert "no root-caused analysis" in response.content.decode()


@pytest.mark.parametrize("method", ["get", "post"])
def test_promote_needs_login(client, alice, method):
    incident = make_incident(shape_report(), alice)

    response = getattr(client, method)(promote_url(incident))

    assert response["Location"].startswith("/accounts/login/")
    assert Case.objects.count() == 0


def test_incident_page_links_the_promote_form_then_the_draft(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    before = alice_client.get(incident.get_absolute_url()).content.decode()
    alice_client.post(promote_url(incident), promote_form(alice_client, incident))
    after = alice_client.get(incident.get_absolute_url()).content.decode()

    assert f'href="{promote_url(incident)}">Promote to case</a>' in before
    assert "Promote to case" not in after
    assert "Promoted to" in after
    assert '<span class="badge">draft</span>' in after


def draft_case(alice_client, alice) -> Case:
    incident = make_incident(shape_report(), alice)
    alice_client.post(promote_url(incident), promote_form(alice_client, incident))
    return Case.objects.get()


def test_a_draft_is_on_its_own_page_and_the_draft_list_only(alice_client, alice):
    case = draft_case(alice_client, alice)

    page = alice_client.get(case.get_absolute_url()).content.decode()
    drafts = alice_client.get("/library/drafts/").content.decode()
    search = alice_client.get("/library/", {"q": "matrix shapes multiplied"})
    listing = alice_client.get("/library/")

    assert "<strong>Draft.</strong>" in page
    assert f'action="/library/{case.slug}/publish/"' in page
    assert f'href="{case.get_absolute_url()}"' in drafts
    assert search.context["result"].hits == []
    assert case not in [hit.case for hit in listing.context["result"].hits]


def test_the_api_does_not_list_or_show_a_draft(client, alice, alice_client, alice_token):
    case = draft_case(alice_client, alice)
    bearer = {"Authorization": f"Bearer {alice_token}"}

    listed = client.get("/api/cases/", {"q": "matrix shapes"}, headers=bearer).json()
    detail = client.get(f"/api/cases/{case.slug}/", headers=bearer)

    assert listed["count"] == 0
    assert detail.status_code == 404


def test_publishing_a_draft_adds_it_to_search_the_api_and_the_activity(
    client, alice, alice_client, alice_token
):
    case = draft_case(alice_client, alice)

    response = alice_client.post(f"/library/{case.slug}/publish/")

    case.refresh_from_db()
    bearer = {"Authorization": f"Bearer {alice_token}"}
    listed = client.get("/api/cases/", {"q": "matrix shapes"}, headers=bearer).json()
    page = alice_client.get(case.get_absolute_url()).content.decode()
    assert response["Location"] == case.get_absolute_url()
    assert case.is_draft is False
    assert [hit["id"] for hit in listed["results"]] == [case.slug]
    assert "/publish/" not in page
    assert "Draft." not in page
    assert case.slug not in alice_client.get("/library/drafts/").content.decode()
    verbs = list(Activity.objects.filter(case=case).order_by("at", "pk").values_list("verb"))
    assert verbs == [("promoted",), ("published",)]


def test_publish_needs_a_post(alice_client, alice):
    case = draft_case(alice_client, alice)

    assert alice_client.get(f"/library/{case.slug}/publish/").status_code == 405
    case.refresh_from_db()
    assert case.is_draft
