"""The client's requests as a server sees them, and its reading of error answers."""

from __future__ import annotations

import pytest

from ranklens_cli.api import ApiError, Client
from tests.http_stub import Canned, StubServer, stub_server

CREATED = {"id": "INC-7", "url": "u", "status_url": "s"}


def test_upload_posts_multipart_with_bearer_token_and_length(crash_bundle):
    with stub_server([Canned.json(201, CREATED)]) as server:
        answer = Client(server.url + "/", "rl_secret").upload(crash_bundle, title="nightly")

    request = server.seen[0]
    assert answer == CREATED
    assert (request.method, request.path) == ("POST", "/api/incidents/")
    assert request.headers["Authorization"] == "Bearer rl_secret"
    assert request.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert int(request.headers["Content-Length"]) == len(request.body)
    assert "Transfer-Encoding" not in request.headers
    assert crash_bundle.read_bytes() in request.body
    assert b'name="title"\r\n\r\nnightly\r\n' in request.body


def test_the_apis_error_message_is_kept(crash_bundle):
    refusal = {"error": "This API token expired on 2027-03-01; issue a new one.", "status": 401}
    with stub_server([Canned.json(401, refusal)]) as server, pytest.raises(ApiError) as caught:
        Client(server.url, "rl_old").upload(crash_bundle)

    assert str(caught.value) == "HTTP 401: " + refusal["error"]
    assert caught.value.status == 401
    assert not caught.value.transient


def error_from(answers: list[Canned], call) -> tuple[ApiError, StubServer]:
    """The ApiError that `call(server)` raises against a server giving `answers`."""
    with stub_server(answers) as server, pytest.raises(ApiError) as caught:
        call(server)
    return caught.value, server


def test_an_error_without_json_shows_the_status_line():
    error, _ = error_from(
        [Canned(502, b"<html>Bad Gateway</html>")],
        lambda server: Client(server.url, "t").status(server.url + "/api/incidents/INC-7/"),
    )

    assert str(error) == "HTTP 502: Bad Gateway"
    assert error.transient


def test_a_redirected_upload_is_refused_not_turned_into_a_get(crash_bundle):
    moved = Canned(301, b"", {"Location": "https://ranklens.test/api/incidents/"})

    error, server = error_from([moved], lambda s: Client(s.url, "t").upload(crash_bundle))

    assert "redirects to https://ranklens.test/api/incidents/; pass that as --url" in str(error)
    assert [r.method for r in server.seen] == ["POST"]


def test_an_answer_that_is_not_json_is_an_error():
    error, _ = error_from(
        [Canned(200, b"<html>login</html>")],
        lambda server: Client(server.url, "t").status(server.url + "/x"),
    )

    assert "did not answer JSON" in str(error)


def test_an_unreachable_server_is_a_transient_error(crash_bundle):
    with stub_server([Canned(200)]) as server:
        url = server.url
    with pytest.raises(ApiError, match="could not reach") as caught:
        Client(url, "t").upload(crash_bundle)

    assert caught.value.status is None
    assert caught.value.transient


@pytest.mark.parametrize(("header", "seconds"), [("30", 30.0), ("soon", None), (None, None)])
def test_a_rate_refusal_is_transient_and_carries_retry_after(header, seconds):
    headers = {"Retry-After": header} if header else {}
    error, _ = error_from(
        [Canned.json(429, {"error": "Too many requests", "status": 429}, **headers)],
        lambda server: Client(server.url, "t").status(server.url + "/api/incidents/INC-7/"),
    )

    assert error.transient
    assert error.retry_after == seconds
