"""Case library pages: search, case permalink, editing, login."""

from __future__ import annotations

import pytest

from incidents.library.models import Case, CaseIncident, CaseSource
from incidents.models import Activity
from tests.incidents.library_helpers import (
    make_case,
    make_incident,
    make_library,
    promote_form,
    shape_report,
)

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
