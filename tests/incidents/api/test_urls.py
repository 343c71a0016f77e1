"""`/api/schema/` and `/api/docs/`: the OpenAPI description ninja generates, and the page
that shows it, served from this site only (the CSP allows nothing else)."""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.django_db

SCHEMA_URL = "/api/schema/"
DOCS_URL = "/api/docs/"


@pytest.fixture
def schema(client) -> dict:
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def operation(schema: dict, path: str, method: str) -> dict:
    return schema["paths"][path][method]


def test_schema_is_openapi_3_and_public(schema):
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Ranklens API"


@pytest.mark.parametrize(
    ("path", "method", "operation_id"),
    [
        ("/api/incidents/", "post", "uploadBundle"),
        ("/api/incidents/INC-{number}/", "get", "getIncident"),
        ("/api/incidents/{number}/", "get", "getIncidentByNumber"),
        ("/api/incidents/", "get", "listIncidents"),
        ("/api/incidents/INC-{number}/", "patch", "updateIncidentTriage"),
        ("/api/incidents/INC-{number}/comments/", "get", "listIncidentComments"),
        ("/api/incidents/INC-{number}/comments/", "post", "addIncidentComment"),
        ("/api/cases/", "get", "searchCases"),
        ("/api/cases/{slug}/", "get", "getCase"),
    ],
)
def test_schema_documents_every_operation(schema, path, method, operation_id):
    op = operation(schema, path, method)

    assert op["operationId"] == operation_id
    assert op["summary"]
    assert op["security"]
    assert "401" in op["responses"]


def test_upload_documents_its_multipart_body_and_error_answers(schema):
    op = operation(schema, "/api/incidents/", "post")

    body = op["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert body["required"] == ["bundle"]
    assert body["properties"]["bundle"]["format"] == "binary"
    assert {"201", "400", "401", "413", "503", "507"} <= set(op["responses"])
    assert op["security"] == [{"BearerToken": []}]


def test_cases_accept_the_session_or_a_token_and_document_their_filters(schema):
    op = operation(schema, "/api/cases/", "get")

    assert op["security"] == [{"LoginSession": []}, {"BearerToken": []}]
    names = {param["name"] for param in op["parameters"]}
    assert names == {"q", "category", "code", "operator", "hardware", "page", "limit"}
    assert schema["components"]["securitySchemes"]["BearerToken"] == {
        "type": "http",
        "scheme": "bearer",
    }


def test_error_answers_reference_the_error_shape(schema):
    ref = operation(schema, "/api/incidents/INC-{number}/", "get")["responses"]["404"]
    error_schema = ref["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]

    assert {"error", "status", "field"} <= set(
        schema["components"]["schemas"][error_schema]["properties"]
    )


def test_docs_page_loads_without_login(client):
    response = client.get(DOCS_URL)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b'id="swagger-ui"' in response.content


def test_docs_page_references_only_local_static_and_runs_no_inline_script(client):
    html = client.get(DOCS_URL).content.decode()

    sources = re.findall(r'<(?:script|link)[^>]*(?:src|href)="([^"]+)"', html)
    assert "/static/ninja/swagger-ui-bundle.js" in sources
    assert "/static/js/api_docs.js" in sources
    # Local files only: static files and the page's translation catalog (/jsi18n/).
    assert all(source.startswith("/") and not source.startswith("//") for source in sources), (
        sources
    )
    # Every script either loads a local file or is a JSON data block, never inline code.
    for tag, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S):
        assert "src=" in tag or 'type="application/json"' in tag, tag
        assert "src=" not in tag or not body.strip()
    assert "http://" not in html.replace("http://testserver", "")
    assert "https://" not in html


def test_docs_settings_point_at_the_schema_and_switch_off_the_online_validator(client):
    html = client.get(DOCS_URL).content.decode()

    settings = re.search(r'id="swagger-settings" type="application/json">(.*?)</script>', html)
    assert '"url": "/api/schema/"' in settings.group(1)
    assert '"validatorUrl": null' in settings.group(1)


@pytest.mark.parametrize(
    "path",
    [
        "/static/ninja/swagger-ui-bundle.js",
        "/static/ninja/swagger-ui.css",
        "/static/js/api_docs.js",
    ],
)
def test_docs_static_files_are_served_locally(client, path):
    response = client.get(path)

    assert response.status_code == 200
    assert b"".join(response.streaming_content)


def test_docs_page_is_sent_under_the_strict_policy(client):
    policy = client.get(DOCS_URL)["Content-Security-Policy"]

    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_incident_list_documents_every_filter(schema):
    op = operation(schema, "/api/incidents/", "get")

    params = {param["name"]: param for param in op["parameters"]}
    assert set(params) == {
        "category", "triage_status", "status", "owner", "tag", "code", "ticket",
        "since", "until", "q", "sort", "page", "per_page",
    }  # fmt: skip
    assert "investigating" in params["triage_status"]["description"]
    assert "comma" in params["tag"]["description"]
    assert all(not param.get("required") for param in params.values())


def test_triage_change_documents_its_fields_and_their_choices(schema):
    op = operation(schema, "/api/incidents/INC-{number}/", "patch")

    ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert set(body["properties"]) == {
        "triage_status", "owner", "tags", "tickets", "root_cause", "root_cause_category",
        "decision", "duplicate_of",
    }  # fmt: skip
    assert body["additionalProperties"] is False
    assert "wont_fix" in json.dumps(body["properties"]["triage_status"])
    assert {"200", "401", "404", "422"} <= set(op["responses"])


def test_detail_answer_documents_the_triage_fields(schema):
    op = operation(schema, "/api/incidents/INC-{number}/", "get")

    ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    detail = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert {
        "status", "report", "triage_status", "owner", "tags", "tickets", "root_cause",
        "root_cause_category", "decision", "duplicate_of",
    } <= set(detail["properties"])  # fmt: skip


def _operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            yield path, method, op


def _served_path(path: str) -> str:
    return path.replace("{number}", "1").replace("{slug}", "no-such-case")


def _call(client, path: str, method: str, query: str = "", headers=None):
    return client.generic(
        method.upper(),
        f"{_served_path(path)}{query}",
        "{}" if method in ("patch", "post") else "",
        content_type="application/json",
        headers=headers or {},
    )


def test_every_operation_documents_the_400_it_answers_for_a_bad_query_string(
    client, schema, token_headers
):
    # A query string holding NUL is refused before any view: every operation answers 400,
    # which the schema listed for the case search only.
    for path, method, op in _operations(schema):
        response = _call(client, path, method, "?q=%00", token_headers)

        assert response.status_code == 400, (method, path)
        assert "400" in op["responses"], (method, path)
        ref = op["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ApiError"), (method, path)


@pytest.mark.parametrize(
    ("path", "method"),
    [("/api/incidents/INC-{number}/", "patch"), ("/api/incidents/INC-{number}/comments/", "post")],
)
def test_a_json_body_that_is_not_json_answers_the_documented_400(
    client, schema, token_headers, triaged, path, method
):
    served = path.replace("{number}", str(triaged["hccl"].pk))
    response = client.generic(
        method.upper(), served, "{not json", content_type="application/json", headers=token_headers
    )

    assert response.status_code == 400
    assert "400" in operation(schema, path, method)["responses"]


def test_every_operation_documents_the_429_past_the_request_budget(
    client, schema, settings, alice, token_headers
):
    # Every call counts against the caller's budget (`throttle=EVERY_CALL`); the schema
    # listed 429 for the upload only.
    from django.core.cache import cache

    settings.RANKLENS_API_RATE = "1/min"
    cache.delete(f"ranklens:throttle:api:user-{alice.pk}")
    client.get("/api/incidents/", headers=token_headers)  # spends the budget

    for path, method, op in _operations(schema):
        response = _call(client, path, method, headers=token_headers)

        assert response.status_code == 429, (method, path)
        assert "429" in op["responses"], (method, path)
    cache.delete(f"ranklens:throttle:api:user-{alice.pk}")


def test_comment_and_text_limits_are_documented_as_the_services_apply_them(
    client, schema, triaged, token_headers
):
    # A blank or too long comment answers 422; the schema accepted any string.
    from incidents.triage.validation import MAX_TEXT

    body = schema["components"]["schemas"]["CommentIn"]["properties"]["body"]
    assert (body["maxLength"], body["pattern"]) == (MAX_TEXT, r"\S")
    assert not re.search(body["pattern"], " \t\n")
    change = schema["components"]["schemas"]["TriageChange"]["properties"]
    assert change["root_cause"]["maxLength"] == change["decision"]["maxLength"] == MAX_TEXT

    path = f"/api/incidents/INC-{triaged['hccl'].pk}/comments/"
    for text in (" \t\n", "x" * (MAX_TEXT + 1)):
        response = client.post(
            path, {"body": text}, content_type="application/json", headers=token_headers
        )
        assert response.status_code == 422
    ok = client.post(
        path, {"body": "x" * MAX_TEXT}, content_type="application/json", headers=token_headers
    )
    assert ok.status_code == 201
