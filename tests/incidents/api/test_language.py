"""API answers stay English whatever language a browser asks the pages for: CI clients
match on these texts, Django's own form errors included."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

pytestmark = pytest.mark.django_db

API_URL = "/api/incidents/"
CHINESE = {"Accept-Language": "zh-CN,zh;q=0.9"}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    translation.activate(settings.LANGUAGE_CODE)


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **CHINESE}


def test_form_errors_stay_english_under_a_chinese_accept_language(client, alice_token):
    response = client.post(API_URL, {"title": "no bundle"}, headers=headers(alice_token))

    assert response.status_code == 400
    assert response.json()["error"] == "This field is required."
    assert response["Content-Language"] == "en"


def test_the_language_cookie_does_not_change_the_api(client, alice_token):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"

    response = client.post(API_URL, {"title": "no bundle"}, headers=headers(alice_token))

    assert response.json()["error"] == "This field is required."


def test_an_oversized_upload_is_refused_in_english(client, alice_token, settings):
    settings.RANKLENS_MAX_UPLOAD_BYTES = 1024
    translation.activate("zh-hans")  # what a thread may hold from its previous page request

    response = client.post(
        API_URL,
        data=b"x" * 200_000,
        content_type="application/octet-stream",
        headers=headers(alice_token),
    )

    assert response.status_code == 413
    assert response.json()["error"].startswith("The bundle is too large")


def test_api_404_is_english(client, alice_token):
    response = client.get(f"{API_URL}INC-999999/", headers=headers(alice_token))

    assert response.status_code == 404
    assert response.json()["error"] == "Not found."


def test_the_same_upload_through_the_page_is_chinese(alice_client):
    """The upload page's own XHR is the UI, not the API: its errors follow the page."""
    response = alice_client.post(
        "/incidents/new/", {"title": "x"}, headers={"Accept": "application/json", **CHINESE}
    )

    assert response.status_code == 400
    assert response.json()["error"] == "这个字段是必填项。"
