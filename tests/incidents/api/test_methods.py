"""HEAD answers as GET without the body, OPTIONS names the methods, and a 405 names HEAD
and OPTIONS too; the schema and docs views refuse methods other than GET."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_head_on_a_status_url_answers_as_get_without_the_body(client, triaged, token_headers):
    url = f"/api/incidents/INC-{triaged['hccl'].pk}/"
    got = client.get(url, headers=token_headers)

    response = client.head(url, headers=token_headers)

    # It was a 405: ninja answers only the methods an operation declares.
    assert response.status_code == 200
    assert response.content == b""
    assert response["Content-Type"] == got["Content-Type"]
    assert int(response["Content-Length"]) == len(got.content)


def test_head_is_refused_as_get_would_be(client, triaged):
    response = client.head(f"/api/incidents/INC-{triaged['hccl'].pk}/")

    assert response.status_code == 401
    assert response.content == b""
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_head_of_an_unknown_incident_is_404(client, token_headers):
    assert client.head("/api/incidents/INC-999999/", headers=token_headers).status_code == 404


def test_head_on_the_list_with_a_bad_filter_is_422(client, token_headers):
    response = client.head("/api/incidents/?status=finished", headers=token_headers)

    assert response.status_code == 422


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/api/incidents/", "GET, HEAD, POST, OPTIONS"),
        ("/api/incidents/INC-1/", "GET, HEAD, PATCH, OPTIONS"),
        ("/api/incidents/1/", "GET, HEAD, OPTIONS"),
        ("/api/cases/", "GET, HEAD, OPTIONS"),
        ("/api/schema/", "GET, HEAD, OPTIONS"),
    ],
)
def test_options_answers_the_methods_a_path_takes(client, path, allow):
    # It was a 405 on operations, and the whole schema on /api/schema/.
    response = client.options(path)

    assert response.status_code == 200
    assert response.content == b""
    assert response["Allow"] == allow
    assert "Content-Type" not in response


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/"])
def test_schema_and_docs_refuse_methods_other_than_get(client, path, method):
    # They answered any method with the document.
    response = getattr(client, method)(path)

    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": "Method not allowed.", "status": 405}
    assert response["Allow"] == "GET, HEAD, OPTIONS"


def test_head_on_the_schema_answers_its_length(client):
    schema = client.get("/api/schema/")

    response = client.head("/api/schema/")

    assert response.status_code == 200
    assert response.content == b""
    assert int(response["Content-Length"]) == len(schema.content)
