"""Every error under /api/ answers JSON `{"error": ..., "status": N}`; pages keep HTML."""

from __future__ import annotations

import json

import pytest
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.test import Client, RequestFactory

from incidents.api import errors as api_errors

pytestmark = pytest.mark.django_db


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert body["status"] == status
    assert body["error"]
    return body


def test_unknown_api_path_is_json_404(client):
    assert_json_error(client.get("/api/nothing-here/"), 404)


def test_unknown_incident_is_json_404(client, alice_token):
    assert_json_error(client.get("/api/incidents/INC-999999/", **bearer(alice_token)), 404)


def test_unknown_api_path_is_json_404_also_with_debug_pages(client, settings):
    settings.DEBUG = True

    assert_json_error(client.get("/api/nothing-here/"), 404)


def test_wrong_method_is_json_405_naming_the_allowed_ones(client, alice_token):
    response = client.delete("/api/incidents/1/", **bearer(alice_token))

    assert_json_error(response, 405)
    assert response["Allow"] == "GET, HEAD, OPTIONS"


def test_405_names_every_method_a_path_takes(client, alice_token):
    response = client.delete("/api/incidents/INC-1/", **bearer(alice_token))

    assert_json_error(response, 405)
    assert set(response["Allow"].split(", ")) == {"GET", "PATCH", "HEAD", "OPTIONS"}


def test_missing_token_is_json_401_with_a_challenge(client):
    response = client.post("/api/incidents/")

    body = assert_json_error(response, 401)
    assert "Bearer" in body["error"]
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_refused_upload_is_json_400_with_field_errors(client, alice_token):
    response = client.post("/api/incidents/", {"title": "x"}, **bearer(alice_token))

    body = assert_json_error(response, 400)
    assert "bundle" in body["errors"]


def test_oversized_upload_is_json_413(client, alice_token, settings):
    settings.RANKLENS_MAX_UPLOAD_BYTES = 10

    response = client.post(
        "/api/incidents/", b"x" * 100_000, content_type="application/octet-stream",
        **bearer(alice_token),
    )  # fmt: skip

    assert_json_error(response, 413)


def test_crash_in_an_api_view_is_json_500(alice_token, monkeypatch):
    def explode(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("incidents.api.cases.case_search", explode)
    client = Client(raise_request_exception=False)

    response = client.get("/api/cases/", **bearer(alice_token))

    body = assert_json_error(response, 500)
    assert "boom" not in body["error"]


def test_refused_csrf_check_on_an_api_path_is_json_403(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    assert_json_error(client.post("/api/cases/"), 403)


@pytest.mark.parametrize(
    "query",
    ["q=%ff%fe", "q=%00", "q=abc%01def", "code=%C3%28"],
    ids=["latin1", "nul", "control", "broken-utf8"],
)
def test_undecodable_or_control_query_bytes_are_json_400(client, alice_token, query):
    response = client.get("/api/cases/", QUERY_STRING=query, **bearer(alice_token))

    assert_json_error(response, 400)


def test_plain_utf8_query_is_still_answered(client, alice_token):
    response = client.get("/api/cases/", {"q": "显存 HCCL"}, **bearer(alice_token))

    assert response.status_code == 200


def test_pages_keep_html_error_pages(alice_client):
    response = alice_client.get("/incidents/INC-999999/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_nul_in_a_page_query_is_400_not_a_server_error(alice_client):
    response = alice_client.get("/library/", QUERY_STRING="q=a%00b")

    assert response.status_code == 400
    assert b"control characters" in response.content


@pytest.mark.parametrize(
    ("handler", "status"),
    [
        (api_errors.handler400, 400),
        (api_errors.handler403, 403),
        (api_errors.handler404, 404),
        (api_errors.handler500, 500),
    ],
    ids=["400", "403", "404", "500"],
)
def test_django_error_handlers_answer_json_for_api_and_html_for_pages(handler, status):
    exception = () if status == 500 else (Exception("x"),)
    api = handler(RequestFactory().get("/api/cases/"), *exception)
    page = handler(RequestFactory().get("/library/"), *exception)

    assert_json_error(api, status)
    assert page.status_code == status
    assert page["Content-Type"].startswith("text/html")


def test_csp_reports_are_logged_and_answered_204(client, caplog):
    report = {"csp-report": {"document-uri": "https://x/", "violated-directive": "script-src"}}

    response = client.post(
        "/csp-report/", json.dumps(report), content_type="application/csp-report"
    )

    assert response.status_code == 204
    assert "CSP violation on 'https://x/'" in caplog.text


def test_an_html_503_becomes_json_and_keeps_its_retry_after():
    page = HttpResponse("<h1>busy</h1>", status=503, headers={"Retry-After": "30"})

    response = api_errors.as_json_error(page)

    assert_json_error(response, 503)
    assert response["Retry-After"] == "30"


def _answer_while_handling(error: Exception, path: str) -> HttpResponse:
    """handler500 as Django calls it: inside the `except` of the uncaught exception."""
    try:
        raise error
    except Exception:
        return api_errors.handler500(RequestFactory().get(path))


@pytest.mark.parametrize("error", [OperationalError("terminating connection"), InterfaceError()])
def test_a_lost_database_answers_503_to_ask_again_not_500(error):
    api = _answer_while_handling(error, "/api/incidents/INC-1/")
    page = _answer_while_handling(error, "/incidents/INC-1/")

    body = assert_json_error(api, 503)
    assert body["code"] == "database_unavailable"
    assert page.status_code == 503
    assert b"Reload the page" in page.content
    assert api["Retry-After"] == page["Retry-After"] == "5"


def test_any_other_uncaught_error_is_still_500():
    assert _answer_while_handling(ValueError("bug"), "/api/incidents/").status_code == 500
    assert _answer_while_handling(ValueError("bug"), "/incidents/").status_code == 500


def _database_gone(*args, **kwargs):
    raise OperationalError("terminating connection due to administrator command")


@pytest.mark.django_db
def test_a_status_poll_that_loses_the_database_answers_503(alice_token, monkeypatch):
    """`ranklens --wait` asks again after a 503 but gives up on a 500."""
    monkeypatch.setattr("incidents.api.incidents._incident", _database_gone)
    client = Client(raise_request_exception=False)

    response = client.get("/api/incidents/INC-1/", **bearer(alice_token))

    assert_json_error(response, 503)
    assert response["Retry-After"] == "5"


@pytest.mark.django_db
def test_a_page_view_that_loses_the_database_answers_503(alice, monkeypatch):
    monkeypatch.setattr("incidents.runs.views._get_incident", _database_gone)
    client = Client(raise_request_exception=False)
    client.force_login(alice)

    response = client.get("/incidents/INC-1/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
