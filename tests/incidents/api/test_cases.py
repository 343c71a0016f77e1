"""`GET /api/cases/`: search with filters, for a logged-in user or a bearer token."""

from __future__ import annotations

import pytest

from incidents.library.services import cases_load_knowledge
from tests.incidents.library_helpers import make_library

pytestmark = pytest.mark.django_db

URL = "/api/cases/"


@pytest.fixture
def library():
    return make_library()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ids(response) -> list[str]:
    return [result["id"] for result in response.json()["results"]]


def test_api_needs_login_or_token(client, library):
    response = client.get(URL, {"q": "dispatch"})

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_api_refuses_a_wrong_token(client, library):
    assert client.get(URL, headers=bearer("rl_wrong")).status_code == 401


def test_api_answers_a_bearer_token(client, library, alice_token):
    response = client.get(URL, {"q": "507014"}, headers=bearer(alice_token))

    assert response.status_code == 200
    assert ids(response)[0] == "aicore-timeout"


def test_api_answers_a_logged_in_user(alice_client, library):
    assert alice_client.get(URL, {"q": "507014"}).status_code == 200


def test_api_result_carries_the_case_and_its_highlight(alice_client, library):
    first = alice_client.get(URL, {"q": "507014"}).json()["results"][0]

    assert first["url"] == "/library/aicore-timeout/"
    assert first["codes"] == ["507014", "EZ9999"]
    assert first["exact"] is True
    assert "<mark>507014</mark>" in first["highlight"]["snippet"]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"category": "oom"}, ["oom-fragmentation", "hbm-exhausted-zh"]),
        ({"code": "561002"}, ["hccl-buffsize-too-small"]),
        ({"operator": "npu_moe_distribute_dispatch_v2"}, ["mc2-dispatch-experts-per-rank"]),
        (
            {"q": "dispatch", "hardware": "A2"},
            ["mc2-dispatch-experts-per-rank", "hccl-buffsize-too-small"],  # A2, any
        ),
        (
            {"q": "dispatch", "category": "op_constraint", "hardware": "A3"},
            ["moe-dispatch-v1-tiling"],
        ),
        ({"q": "显存"}, ["hbm-exhausted-zh"]),
    ],
    ids=["category", "code", "operator", "hardware", "combined", "chinese"],
)
def test_api_filters(alice_client, library, params, expected):
    assert sorted(ids(alice_client.get(URL, params))) == sorted(expected)


def test_api_reports_typo_corrections(alice_client, library):
    data = alice_client.get(URL, {"q": "fragmentaton"}).json()

    assert data["corrections"] == {"fragmentaton": "fragmentation"}
    assert data["results"][0]["id"] == "oom-fragmentation"


def test_api_pages_with_limit(alice_client, library):
    data = alice_client.get(URL, {"limit": 2, "page": 2}).json()

    assert data["count"] == len(library)
    assert data["page"] == 2
    assert len(data["results"]) == 2


@pytest.mark.parametrize("q", ["", "507014"])
def test_api_page_beyond_any_database_offset_is_empty_not_a_500(alice_client, library, q):
    # (page - 1) * limit does not fit a 64-bit OFFSET: SQLite answered "datatype mismatch"
    # (PostgreSQL "bigint out of range") and the API a 500.
    response = alice_client.get(URL, {"q": q, "page": "99999999999999999999", "limit": 100})

    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["results"], data["has_next"]) == ([], False)
    assert data["page"] == 99999999999999999999


def test_api_case_detail(alice_client, library):
    data = alice_client.get("/api/cases/aicore-timeout/").json()

    assert data["id"] == "aicore-timeout"
    assert data["root_cause"].startswith("An operator loops")
    assert data["incidents"] == []


def test_api_case_detail_carries_a_seeded_case_chinese(alice_client):
    cases_load_knowledge()

    data = alice_client.get("/api/cases/oom-fragmentation/").json()

    assert data["title"] == "OOM from a fragmented allocator cache"
    assert data["translations"]["zh"]["title"] == "分配器缓存碎片化导致 OOM"
    assert len(data["translations"]["zh"]["verify"]) == len(data["verify"])
