"""Ninja's errors in the API's shape: a bad field value names the field (422)."""

from __future__ import annotations

import json

import pytest
from ninja.errors import ValidationError

from incidents.api import exception_handlers

pytestmark = pytest.mark.django_db


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(
    ("loc", "name"),
    [
        (("query", "page"), "page"),
        (("body", "payload", "tags", "list[str]", 0), "tags"),
        (("body", "payload", "body"), "body"),
        (("body", "payload"), "body"),
        (("path", "number"), "number"),
    ],
)
def test_field_name_drops_where_the_value_came_from(loc, name):
    assert exception_handlers.field_name(loc) == name


def test_a_choice_error_lists_what_the_field_accepts():
    error = {
        "loc": ("body", "payload", "triage_status"),
        "type": "enum",
        "msg": "Input should be 'new' or 'done'",
        "ctx": {"expected": "'new' or 'done'"},
    }

    assert (
        exception_handlers.error_message(error) == "triage_status: must be one of 'new' or 'done'."
    )


def test_validation_error_answers_422_naming_the_first_field(rf):
    exc = ValidationError(
        [
            {
                "loc": ("query", "page"),
                "type": "int_parsing",
                "msg": "Input should be a valid integer",
            },
            {
                "loc": ("query", "limit"),
                "type": "int_parsing",
                "msg": "Input should be a valid integer",
            },
        ]
    )

    response = exception_handlers.validation_error(rf.get("/api/cases/"), exc)

    assert response.status_code == 422
    body = json.loads(response.content)
    assert body["status"] == 422
    assert body["field"] == "page"
    assert body["error"] == "page: Input should be a valid integer."
    assert [e["field"] for e in body["errors"]] == ["page", "limit"]


def test_a_non_number_page_on_the_case_search_is_422_naming_it(client, alice_token):
    response = client.get("/api/cases/", {"page": "two"}, headers=bearer(alice_token))

    assert response.status_code == 422
    body = response.json()
    assert body["field"] == "page"
    assert body["error"].startswith("page: ")
    assert body["status"] == 422


def test_out_of_range_limit_is_still_clamped_not_refused(alice_client):
    data = alice_client.get("/api/cases/", {"limit": 10_000, "page": 0}).json()

    assert data["page"] == 1
    assert data["per_page"] <= 100
