"""The incident list's links: sort headers, quick links, pages and the tidy URL a
submitted filter form is sent to, all built from the current filters."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from incidents.triage.list_page import (
    canonical_query,
    filter_choices,
    pager_links,
    quick_links,
    sort_links,
)
from incidents.triage.listing import IncidentFilters, IncidentPage


def filters_of(query: str) -> IncidentFilters:
    return IncidentFilters.from_params(QueryDict(query))


@pytest.mark.parametrize(
    ("query", "column", "link", "direction"),
    [
        ("", "uploaded", "sort=created", "desc"),  # default newest first: click for oldest
        ("sort=created", "uploaded", "", "asc"),  # and back to the default
        ("", "title", "sort=title", ""),
        ("sort=title", "title", "sort=-title", "asc"),
        ("sort=-title", "title", "sort=title", "desc"),
        ("", "id", "sort=-id", ""),  # numbers and dates start newest first
        ("tag=moe&sort=owner", "category", "tag=moe&sort=category", ""),
        (
            "triage_status=new,investigating",
            "owner",
            "triage_status=new,investigating&sort=owner",
            "",
        ),
    ],
)
def test_a_header_link_keeps_the_filters_and_turns_the_sort(query, column, link, direction):
    links = sort_links(filters_of(query))
    assert links[column].query == link
    assert links[column].direction == direction


def test_quick_links_mark_the_view_shown(django_user_model):
    alice = django_user_model(username="alice")
    links = {link.label: link for link in quick_links(filters_of("owner=alice&sort=title"), alice)}

    assert links["All"].query == ""
    assert links["New"].query == "triage_status=new"
    assert links["Open"].query == "triage_status=new,investigating"
    assert links["Mine"].query == "owner=alice"
    assert [label for label, link in links.items() if link.active] == ["Mine"]
    assert [link.label for link in quick_links(filters_of(""), alice) if link.active] == ["All"]


@pytest.mark.parametrize(
    ("number", "count", "previous", "following"),
    [
        (1, 120, None, "tag=moe&page=2"),
        (2, 120, "tag=moe", "tag=moe&page=3"),
        (3, 120, "tag=moe&page=2", None),
        (1, 10, None, None),
    ],
)
def test_pages_keep_the_filters(number, count, previous, following):
    page = IncidentPage(items=[], count=count, page=number, per_page=50)
    links = pager_links(filters_of("tag=moe"), page)
    assert links.get("previous") == previous
    assert links.get("next") == following


@pytest.mark.parametrize(
    ("query", "tidy"),
    [
        ("triage_status=new", None),
        ("", None),
        ("triage_status=new&triage_status=investigating", "triage_status=new,investigating"),
        ("category=&owner=bob&q=", "owner=bob"),
        ("category=&tag=&page=2", "page=2"),
        ("category=&page=1", ""),
        ("q=+++&sort=title", "sort=title"),
    ],
)
def test_a_submitted_form_is_sent_to_its_tidy_url(query, tidy):
    params = QueryDict(query)
    page = int(params.get("page") or 1)
    assert canonical_query(params, IncidentFilters.from_params(params), page) == tidy


@pytest.mark.django_db
def test_filter_choices_list_active_users_and_the_taxonomy(django_user_model):
    django_user_model.objects.create_user(username="zoe")
    django_user_model.objects.create_user(username="adam")
    django_user_model.objects.create_user(username="gone", is_active=False)
    choices = filter_choices()

    assert choices["owner_choices"] == ["adam", "zoe"]
    assert "hccl" in choices["category_choices"]
    assert ("investigating", "Investigating") in choices["triage_choices"]
    assert choices["no_owner"] == "none"
