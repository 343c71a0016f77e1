"""JSON bodies the API reads: a string escaping an unpaired surrogate is refused (400), as
is a body that is not JSON, and the answer says why."""

from __future__ import annotations

import pytest

from incidents.models import Comment

pytestmark = pytest.mark.django_db


def send(client, method: str, path: str, raw: str, headers) -> object:
    call = getattr(client, method)
    return call(path, raw, content_type="application/json", headers=headers)


@pytest.mark.parametrize(
    "raw",
    [
        '{"root_cause": "\\ud800"}',
        '{"root_cause": "a\\uDFFFb"}',
        '{"tags": ["ok", "\\udc00"]}',
        '{"\\ud800": "x"}',
    ],
)
def test_an_unpaired_surrogate_in_a_change_is_400_not_a_500(client, triaged, token_headers, raw):
    # Saved, it raised UnicodeEncodeError in the database driver: a 500.
    incident = triaged["hccl"]

    response = send(client, "patch", f"/api/incidents/INC-{incident.pk}/", raw, token_headers)

    assert response.status_code == 400, response.content
    assert response.json() == {
        "error": "The request body is not JSON text: a string holds an unpaired surrogate "
        "escape (\\ud800-\\udfff).",
        "status": 400,
    }
    incident.refresh_from_db()
    assert incident.root_cause == ""


def test_an_unpaired_surrogate_in_a_comment_is_400_and_nothing_is_stored(
    client, triaged, token_headers
):
    path = f"/api/incidents/INC-{triaged['hccl'].pk}/comments/"

    response = send(client, "post", path, '{"body": "seen \\ud83d twice"}', token_headers)

    assert response.status_code == 400, response.content
    assert "unpaired surrogate" in response.json()["error"]
    assert not Comment.objects.exists()


def test_an_escaped_surrogate_pair_is_one_character_and_accepted(client, triaged, token_headers):
    path = f"/api/incidents/INC-{triaged['hccl'].pk}/comments/"

    response = send(client, "post", path, '{"body": "seen \\ud83d\\ude00 twice"}', token_headers)

    assert response.status_code == 201, response.content
    assert Comment.objects.get().body == "seen \U0001f600 twice"


def test_a_body_that_is_not_json_says_where_it_stops(client, triaged, token_headers):
    path = f"/api/incidents/INC-{triaged['hccl'].pk}/"

    response = send(client, "patch", path, '{"owner": ', token_headers)

    assert response.status_code == 400
    assert response.json()["error"] == (
        "The request body is not JSON text: Expecting value: line 1 column 11 (char 10)."
    )
