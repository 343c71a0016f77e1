"""Management commands: analyze, issue_token, ensure_admin."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "analyzers" / "schema" / "report.schema.json").read_text())


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture(params=["healthy", "crash_one_rank", "killed_rank", "divergent_monitored_barrier"])
def torch_bundle(request, corpus) -> Path:
    return corpus / "torch" / f"{request.param}.tar.gz"


def test_analyze_json_is_valid_against_the_report_schema(torch_bundle):
    out, _ = run("analyze", str(torch_bundle), "--json")

    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    assert report["bundle"]["name"] == torch_bundle.name


def test_analyze_json_of_a_single_log_is_valid_too(corpus):
    out, _ = run("analyze", str(corpus / "cases" / "d01" / "log.txt"), "--json")

    jsonschema.validate(json.loads(out), SCHEMA)


def test_analyze_prints_a_readable_summary(crash_bundle):
    out, _ = run("analyze", str(crash_bundle))

    assert "crash_one_rank.tar.gz" in out
    assert "first error" in out
    assert not out.lstrip().startswith("{")


def test_analyze_refuses_a_non_bundle_with_a_clear_error(tmp_path):
    junk = tmp_path / "picture.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 16)

    with pytest.raises(CommandError, match="not a log bundle"):
        run("analyze", str(junk))


@pytest.mark.django_db
def test_issue_token_creates_the_user_and_prints_a_working_token(client, crash_bundle):
    out, err = run("issue_token", "ci-bot")
    token = out.strip()

    assert get_user_model().objects.filter(username="ci-bot").exists()
    assert "Created user" in err
    response = client.get("/api/incidents/1/", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 404  # authenticated; there is just no incident 1


@pytest.mark.django_db
def test_issue_token_for_an_existing_user_adds_a_token(alice):
    first, _ = run("issue_token", "alice")
    second, err = run("issue_token", "alice")

    assert first != second
    assert err == ""
    assert alice.api_tokens.count() == 2


@pytest.mark.django_db
def test_ensure_admin_creates_the_admin_once_and_shows_the_password_once(client):
    first, _ = run("ensure_admin")
    second, _ = run("ensure_admin")

    password = first.split("password:")[1].strip()
    assert "user:     admin" in first
    assert "password" not in second
    assert "admin" in second
    assert client.login(username="admin", password=password)
    assert get_user_model().objects.filter(is_superuser=True).count() == 1


def test_analyze_json_of_odd_member_names_is_json(tmp_path):
    from tests.analyzers import hostile

    bundle = hostile.named(tmp_path / "names.tar", ["bad\udcff.log", "two\nlines.log"])

    out, _ = run("analyze", str(bundle), "--json")

    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    assert [f["path"] for f in report["bundle"]["files"]] == ["bad\\xff.log", "two\\x0alines.log"]


def test_analyze_refuses_a_corrupt_archive_with_one_line(tmp_path):
    from tests.analyzers import hostile

    bundle = hostile.corrupt_deflate(tmp_path / "c.tar.gz", at=300_000)

    with pytest.raises(CommandError, match="corrupt or truncated") as error:
        run("analyze", str(bundle), "--json")
    assert "\n" not in str(error.value)
