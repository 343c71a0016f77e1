"""The API's incident answers, built without a server."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.test import RequestFactory

from incidents.api import payloads
from incidents.models import Comment
from incidents.triage.listing import IncidentFilters, incident_page

pytestmark = pytest.mark.django_db


def request_for(path: str = "/api/incidents/"):
    return RequestFactory().get(path)


def test_a_list_row_has_an_absolute_url_instead_of_the_page_path(triaged):
    row = payloads.list_row(request_for(), triaged["hccl"])

    assert row["url"] == f"http://testserver/incidents/INC-{triaged['hccl'].pk}/"
    assert "path" not in row


def test_page_links_keep_filters_and_stop_at_both_ends(triaged):
    filters = IncidentFilters.from_params(QueryDict("triage_status=new,investigating,resolved"))
    first = incident_page(filters, page=1, per_page=2)
    last = incident_page(filters, page=2, per_page=2)

    links_first = payloads.page_links(request_for(), filters, first)
    links_last = payloads.page_links(request_for(), filters, last)

    assert links_first["previous"] is None
    assert links_first["next"] == (
        "http://testserver/api/incidents/"
        "?triage_status=new,investigating,resolved&page=2&per_page=2"
    )
    assert links_last["next"] is None
    assert links_last["previous"].endswith("page=1&per_page=2")


def test_detail_keeps_the_run_status_and_adds_the_triage_decision(triaged, alice):
    shape = triaged["shape"]
    shape.root_cause, shape.decision = "split", "fix it"
    shape.save()

    data = payloads.incident_detail(request_for(), shape)

    assert data["status"] == "done"
    assert data["triage_status"] == "resolved"
    assert (data["root_cause"], data["decision"], data["duplicate_of"]) == ("split", "fix it", None)
    assert data["status_url"] == f"http://testserver/api/incidents/INC-{shape.pk}/"


def test_a_comment_carries_its_markdown_and_safe_html(triaged, alice):
    item = Comment.objects.create(
        incident=triaged["hccl"], author=alice, author_name="alice", body="*see* [x](javascript:1)"
    )

    data = payloads.comment(item)

    assert data["author"] == "alice"
    assert "<em>see</em>" in data["body_html"]
    assert "href" not in data["body_html"]  # a javascript: link is not made a link
